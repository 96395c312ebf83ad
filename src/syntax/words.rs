//! Word constants (`0ud8_5`, `0sb4_1010`, `0h_ff`, `0o_17`) as NuSMV 2.5.4 reads them
//! (`WordNumber_from_parsed_string`): `0`, an optional `u`/`s` (lower case only), a base letter
//! `b o d h` (either case), an optional decimal width, `_`, and the digits with `_` separators.
//!
//! Without a width, binary, octal and hexadecimal constants take their width from the digits
//! (1, 3 and 4 bits per digit); decimal constants need one. The width must lie in 1..=64 and the
//! value must fit in it; a signed decimal constant may be at most 2^(width−1) (so that
//! `-0sd8_128` can be written), and its bit pattern is the value itself. The grammar rule
//! `word_lit` has already checked the overall shape; this module checks the rest and returns
//! NuSMV's messages.

/// Widest word NuSMV 2.5.4 accepts.
pub(crate) const MAX_WORD_WIDTH: u32 = 64;

/// A parsed word constant: the bit pattern (only the low `width` bits may be set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WordLit {
    pub bits: u64,
    pub width: u8,
    pub signed: bool,
}

/// Parses the text of a `word_lit` token; `Err` carries a message saying what is wrong.
pub(crate) fn parse_word_lit(text: &str) -> Result<WordLit, String> {
    let rest = text.strip_prefix('0').ok_or_else(|| "a word constant starts with `0`".to_string())?;
    let (signed, rest) = match rest.as_bytes().first() {
        Some(b's') => (true, &rest[1..]),
        Some(b'u') => (false, &rest[1..]),
        _ => (false, rest),
    };
    let base: u32 = match rest.as_bytes().first().map(u8::to_ascii_lowercase) {
        Some(b'b') => 2,
        Some(b'o') => 8,
        Some(b'd') => 10,
        Some(b'h') => 16,
        _ => return Err("a word constant needs a base letter `b`, `o`, `d` or `h` after `0`, `0u` or `0s`".into()),
    };
    let rest = &rest[1..];
    let (width_text, digits) = rest.split_once('_').ok_or_else(|| "a word constant needs `_` before its value".to_string())?;
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    let width: u64 = if width_text.is_empty() {
        let per_digit = match base {
            2 => 1,
            8 => 3,
            16 => 4,
            _ => return Err("decimal word constant without width: write the width after `d`, e.g. `0ud8_5`".into()),
        };
        digits.len() as u64 * per_digit
    } else {
        width_text.parse().unwrap_or(u64::MAX)
    };
    if width == 0 || width > MAX_WORD_WIDTH as u64 {
        return Err(format!("the width of a word constant must lie in 1..{MAX_WORD_WIDTH}, found {}", width_or_text(width, width_text)));
    }
    if let Some(bad) = digits.chars().find(|c| !c.is_digit(base)) {
        return Err(format!("`{bad}` is not a base-{base} digit"));
    }
    let value = u64::from_str_radix(&digits, base).map_err(|_| format!("the value of `{text}` does not fit in {width} bits"))?;
    if width < 64 && value >> width != 0 {
        return Err(format!("the value of `{text}` does not fit in {width} bits"));
    }
    if signed && base == 10 && value > 1u64 << (width - 1) {
        return Err(format!("the value of the signed decimal constant `{text}` is larger than 2^{} (the largest signed {width}-bit magnitude)", width - 1));
    }
    Ok(WordLit { bits: value, width: width as u8, signed })
}

fn width_or_text(width: u64, text: &str) -> String {
    if width == u64::MAX { text.to_string() } else { width.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> (u64, u8, bool) {
        let w = parse_word_lit(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        (w.bits, w.width, w.signed)
    }

    #[test]
    fn widths_from_digits_and_explicit_widths() {
        assert_eq!(ok("0ud8_5"), (5, 8, false));
        assert_eq!(ok("0d8_5"), (5, 8, false));
        assert_eq!(ok("0sb4_1010"), (0b1010, 4, true));
        assert_eq!(ok("0h_ff"), (255, 8, false));
        assert_eq!(ok("0b_101"), (5, 3, false));
        assert_eq!(ok("0o_17"), (15, 6, false));
        assert_eq!(ok("0ub_0_1_1"), (3, 3, false));
        assert_eq!(ok("0uH4_A"), (10, 4, false));
        assert_eq!(ok("0sd4_8"), (8, 4, true));
        assert_eq!(ok("0ud64_18446744073709551615"), (u64::MAX, 64, false));
        assert_eq!(ok("0ub4_0011"), (3, 4, false));
    }

    #[test]
    fn errors() {
        for bad in ["0d_5", "0ud0_0", "0ud65_0", "0ub4_11111", "0ud4_16", "0h_ffffffffffffffffff", "0sd4_9", "0b_12", "0ud8_a", "0ud99999999999999999999_1"] {
            assert!(parse_word_lit(bad).is_err(), "{bad}");
        }
    }
}
