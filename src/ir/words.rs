//! The meaning of operators on word values ([`Value::Word`]), as NuSMV 2.5.4 computes them
//! (`utils/WordNumber.c`): a word is its bit pattern, arithmetic is modulo 2^width, signed words
//! are two's complement. Also how NuSMV prints a word value ([`write_word`]); word constants are
//! read by `syntax::words`.
//!
//! - `+ - *` and unary `-` wrap; `/` and `mod` on unsigned words divide the patterns, on signed
//!   words they truncate toward zero and the remainder has the dividend's sign (C); a zero divisor
//!   is an error.
//! - `! & | xor xnor -> <->` act on each bit; `< <= > >=` compare as signed or unsigned numbers.
//! - `<<` and `>>` shift by an integer or a word amount in 0..=width (anything else is an error,
//!   as in NuSMV); `>>` on a signed word is arithmetic.
//! - `::` concatenates (the left operand gives the high bits; the result is unsigned), `w[h:l]`
//!   selects bits, `extend`/`resize` change the width, `signed`/`unsigned` reinterpret, `word1`,
//!   `bool` and `toint` convert.
//!
//! The type checker guarantees equal widths and signedness where NuSMV requires them; this
//! module still answers [`WordError::BadOperand`] rather than panicking when they differ. Shared
//! by constant folding ([`super::ops`]) and the state-space evaluator.

use crate::ir::{BinOp, Builtin, UnOp, Value};

/// Widest word variable whose value index is its bit pattern: a state stores each variable's
/// value index in 32 bits, two of which patterns are reserved (unset slots and `EXIT`). Wider
/// variables number their values instead ([`super::word_values`]).
pub(crate) const MAX_VAR_WIDTH: u8 = 31;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WordError {
    DivisionByZero,
    /// A shift amount outside 0..=width.
    ShiftOutOfRange,
    /// A word too wide for an integer (`toint` of a 64-bit unsigned word above 2^63 − 1).
    Overflow,
    /// Operands of the wrong kind or of different word types (the type checker prevents this).
    BadOperand,
}

/// All ones in the low `width` bits.
pub(crate) fn mask(width: u8) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// The two's-complement value of a `width`-bit pattern.
pub(crate) fn sign_extend(bits: u64, width: u8) -> i64 {
    let shift = 64 - u32::from(width.clamp(1, 64));
    ((bits << shift) as i64) >> shift
}

fn word(bits: u64, width: u8, signed: bool) -> Value {
    Value::Word { bits: bits & mask(width), width, signed }
}

/// The numeric value of a word: signed words as two's complement, unsigned as the pattern.
fn number(bits: u64, width: u8, signed: bool) -> i128 {
    if signed { i128::from(sign_extend(bits, width)) } else { i128::from(bits) }
}

pub(crate) fn unary(op: UnOp, v: Value) -> Result<Value, WordError> {
    let Value::Word { bits, width, signed } = v else { return Err(WordError::BadOperand) };
    Ok(match op {
        UnOp::Not => word(!bits, width, signed),
        UnOp::Neg => word(bits.wrapping_neg(), width, signed),
    })
}

/// A binary operator with at least one word operand (`In` and `Eq`/`Ne` on equal types are
/// plain value comparisons).
pub(crate) fn binary(op: BinOp, x: Value, y: Value) -> Result<Value, WordError> {
    let Value::Word { bits: a, width, signed } = x else { return Err(WordError::BadOperand) };
    if let BinOp::Shl | BinOp::Shr = op {
        return shift(op, a, width, signed, y);
    }
    let Value::Word { bits: b, width: wb, signed: sb } = y else { return Err(WordError::BadOperand) };
    if op == BinOp::Concat {
        let total = width.checked_add(wb).filter(|&t| t <= 64).ok_or(WordError::BadOperand)?;
        let high = if wb >= 64 { 0 } else { a << wb };
        return Ok(word(high | b, total, false));
    }
    if width != wb || signed != sb {
        return Err(WordError::BadOperand);
    }
    let (na, nb) = (number(a, width, signed), number(b, width, signed));
    let bit = |r: u64| Ok(word(r, width, signed));
    match op {
        BinOp::Add => bit(a.wrapping_add(b)),
        BinOp::Sub => bit(a.wrapping_sub(b)),
        BinOp::Mul => bit(a.wrapping_mul(b)),
        BinOp::Div | BinOp::Mod if b == 0 => Err(WordError::DivisionByZero),
        // i128: the signed quotient −2^63 / −1 does not overflow; truncation keeps the pattern.
        BinOp::Div => bit((na / nb) as u64),
        BinOp::Mod => bit((na % nb) as u64),
        BinOp::And => bit(a & b),
        BinOp::Or => bit(a | b),
        BinOp::Xor => bit(a ^ b),
        BinOp::Xnor | BinOp::Iff => bit(!(a ^ b)),
        BinOp::Implies => bit(!a | b),
        BinOp::Eq => Ok(Value::Bool(a == b)),
        BinOp::Ne => Ok(Value::Bool(a != b)),
        BinOp::Lt => Ok(Value::Bool(na < nb)),
        BinOp::Le => Ok(Value::Bool(na <= nb)),
        BinOp::Gt => Ok(Value::Bool(na > nb)),
        BinOp::Ge => Ok(Value::Bool(na >= nb)),
        BinOp::In => Ok(Value::Bool(a == b)),
        BinOp::Shl | BinOp::Shr | BinOp::Concat => Err(WordError::BadOperand),
    }
}

/// `a << n`, `a >> n` with `n` an integer or a word, 0 ≤ n ≤ width.
fn shift(op: BinOp, a: u64, width: u8, signed: bool, amount: Value) -> Result<Value, WordError> {
    let n = match amount {
        Value::Int(i) => i128::from(i),
        Value::Word { bits, width, signed } => number(bits, width, signed),
        _ => return Err(WordError::BadOperand),
    };
    if !(0..=i128::from(width)).contains(&n) {
        return Err(WordError::ShiftOutOfRange);
    }
    let n = n as u32;
    let r = match op {
        BinOp::Shl => a.checked_shl(n).unwrap_or(0),
        _ if signed => (sign_extend(a, width) >> n.min(63)) as u64,
        _ => a.checked_shr(n).unwrap_or(0),
    };
    Ok(word(r, width, signed))
}

/// The word built-in functions, and `toint`/`bool` of a word.
pub(crate) fn builtin(f: Builtin, args: &[Value]) -> Result<Value, WordError> {
    match (f, args) {
        (Builtin::Word1, [Value::Bool(b)]) => Ok(word(u64::from(*b), 1, false)),
        (_, [Value::Word { bits, width, signed }]) => {
            let (bits, width, signed) = (*bits, *width, *signed);
            match f {
                Builtin::Resize(to) => Ok(resize(bits, width, signed, to)),
                Builtin::Signed => Ok(word(bits, width, true)),
                Builtin::Unsigned => Ok(word(bits, width, false)),
                Builtin::Select(hi, lo) if hi >= lo && hi < width => Ok(word(bits >> lo, hi - lo + 1, false)),
                Builtin::Bool if width == 1 => Ok(Value::Bool(bits & 1 == 1)),
                Builtin::ToInt => i64::try_from(number(bits, width, signed)).map(Value::Int).map_err(|_| WordError::Overflow),
                _ => Err(WordError::BadOperand),
            }
        }
        _ => Err(WordError::BadOperand),
    }
}

/// `resize(w, to)`: unsigned words are zero-extended or truncated; signed words are
/// sign-extended, or keep their sign bit and their `to − 1` low bits (NuSMV 2.5.4).
fn resize(bits: u64, width: u8, signed: bool, to: u8) -> Value {
    if to >= width {
        let extended = if signed { sign_extend(bits, width) as u64 } else { bits };
        return word(extended, to, signed);
    }
    if !signed {
        return word(bits, to, false);
    }
    let sign = (bits >> (width - 1)) & 1;
    word((sign << (to - 1)) | (bits & mask(to - 1)), to, true)
}

/// A word value as NuSMV 2.5.4 prints it in traces and specifications: `0ud8_5`, and for
/// signed words the decimal value with its sign, `0sd4_7` or `-0sd4_3`.
pub(crate) fn write_word(out: &mut String, bits: u64, width: u8, signed: bool) {
    use std::fmt::Write;
    let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    let bits = bits & mask;
    let negative = signed && width > 0 && (bits >> (width - 1)) & 1 == 1;
    let _ =
        if negative { write!(out, "-0sd{width}_{}", bits.wrapping_neg() & mask) } else { write!(out, "0{}d{width}_{bits}", if signed { 's' } else { 'u' }) };
}

#[cfg(test)]
mod tests {
    use super::write_word;

    #[test]
    fn printing_as_nusmv() {
        let show = |bits, width, signed| {
            let mut s = String::new();
            write_word(&mut s, bits, width, signed);
            s
        };
        assert_eq!(show(5, 8, false), "0ud8_5");
        assert_eq!(show(0b1101, 4, true), "-0sd4_3");
        assert_eq!(show(0b1000, 4, true), "-0sd4_8");
        assert_eq!(show(7, 4, true), "0sd4_7");
        assert_eq!(show(1 << 63, 64, true), "-0sd64_9223372036854775808");
        assert_eq!(show(u64::MAX, 64, false), "0ud64_18446744073709551615");
    }

    use super::*;
    use proptest::prelude::*;

    fn w(bits: u64, width: u8, signed: bool) -> Value {
        Value::Word { bits: bits & mask(width), width, signed }
    }

    /// The reference: numbers in i128, then truncation to the width.
    fn reference(op: BinOp, a: u64, b: u64, width: u8, signed: bool) -> Option<Value> {
        let to_num = |x: u64| if signed { i128::from(sign_extend(x, width)) } else { i128::from(x) };
        let (x, y) = (to_num(a), to_num(b));
        let m = i128::from(mask(width));
        let trunc = |r: i128| Some(w((r & m) as u64, width, signed));
        match op {
            BinOp::Add => trunc(x + y),
            BinOp::Sub => trunc(x - y),
            BinOp::Mul => trunc(x.wrapping_mul(y)),
            BinOp::Div if y != 0 => trunc(x / y),
            BinOp::Mod if y != 0 => trunc(x % y),
            BinOp::Div | BinOp::Mod => None,
            BinOp::Lt => Some(Value::Bool(x < y)),
            BinOp::Le => Some(Value::Bool(x <= y)),
            BinOp::Gt => Some(Value::Bool(x > y)),
            BinOp::Ge => Some(Value::Bool(x >= y)),
            BinOp::And => trunc(x & y),
            BinOp::Or => trunc(x | y),
            BinOp::Xor => trunc(x ^ y),
            _ => unreachable!(),
        }
    }

    const OPS: [BinOp; 12] =
        [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::And, BinOp::Or, BinOp::Xor];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn arithmetic_matches_i128_reference(width in 1u8..=64, signed: bool, a: u64, b: u64, op in 0usize..12, small in 0u8..4) {
            // Small operands hit the corner cases (0, 1, −1, the sign bit) more often.
            let pick = |x: u64, k: u8| match k { 0 => x % 3, 1 => mask(width) - x % 2, 2 => 1u64 << (width - 1), _ => x };
            let (a, b) = (pick(a, small) & mask(width), pick(b, (small + 1) % 4) & mask(width));
            let op = OPS[op];
            let got = binary(op, w(a, width, signed), w(b, width, signed)).ok();
            prop_assert_eq!(got, reference(op, a, b, width, signed), "{:?} {} {} width {} signed {}", op, a, b, width, signed);
        }

        #[test]
        fn shifts_and_resizes_match_reference(width in 1u8..=64, signed: bool, a: u64, n in 0u32..=64, to in 1u8..=64) {
            let a = a & mask(width);
            let x = if signed { i128::from(sign_extend(a, width)) } else { i128::from(a) };
            let m = i128::from(mask(width));
            let shl = binary(BinOp::Shl, w(a, width, signed), Value::Int(i64::from(n))).ok();
            let shr = binary(BinOp::Shr, w(a, width, signed), Value::Int(i64::from(n))).ok();
            if n <= u32::from(width) {
                prop_assert_eq!(shl, Some(w(((x << n) & m) as u64, width, signed)));
                prop_assert_eq!(shr, Some(w(((x >> n) & m) as u64, width, signed)));
            } else {
                prop_assert_eq!(shl, None);
                prop_assert_eq!(shr, None);
            }
            let r = builtin(Builtin::Resize(to), &[w(a, width, signed)]).ok();
            let expected = if to >= width || !signed {
                (x & i128::from(mask(to))) as u64
            } else {
                let sign = u64::from(x < 0);
                (sign << (to - 1)) | (a & mask(to - 1))
            };
            prop_assert_eq!(r, Some(w(expected, to, signed)));
        }
    }

    #[test]
    fn a_word_value_is_as_small_as_an_integer() {
        // States hold indices, but evaluation moves `Value`s around: words must not grow them.
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }

    #[test]
    fn nusmv_examples() {
        // Values checked against NuSMV 2.5.4 traces (s = -0sd4_7).
        let s = w(0b1001, 4, true);
        assert_eq!(binary(BinOp::Div, s, w(2, 4, true)), Ok(w((-3i64) as u64, 4, true)));
        assert_eq!(binary(BinOp::Mod, s, w(2, 4, true)), Ok(w((-1i64) as u64, 4, true)));
        assert_eq!(binary(BinOp::Shr, s, w(1, 2, false)), Ok(w((-4i64) as u64, 4, true)));
        assert_eq!(builtin(Builtin::Resize(2), &[s]), Ok(w(0b11, 2, true)));
        assert_eq!(builtin(Builtin::Resize(2), &[w(0b1001, 4, false)]), Ok(w(1, 2, false)));
        assert_eq!(builtin(Builtin::Resize(6), &[s]), Ok(w((-7i64) as u64, 6, true)));
        assert_eq!(builtin(Builtin::ToInt, &[s]), Ok(Value::Int(-7)));
        assert_eq!(builtin(Builtin::Select(1, 1), &[s]), Ok(w(0, 1, false)));
        assert_eq!(binary(BinOp::Concat, w(3, 4, false), s), Ok(w(0b0011_1001, 8, false)));
        assert_eq!(binary(BinOp::Shl, w(1, 4, false), Value::Int(5)), Err(WordError::ShiftOutOfRange));
        assert_eq!(binary(BinOp::Div, s, w(0, 4, true)), Err(WordError::DivisionByZero));
        assert_eq!(unary(UnOp::Not, w(0b0101, 4, false)), Ok(w(0b1010, 4, false)));
        assert_eq!(unary(UnOp::Neg, w(3, 4, true)), Ok(w(0b1101, 4, true)));
    }
}
