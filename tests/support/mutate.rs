//! Mutating a text for robustness tests: replace characters at chosen places by vocabulary
//! tokens. Used as `#[path = "support/mutate.rs"] mod mutate;` by the parser tests.

/// Replaces, for each `(at, insert)`, the character at `at` (a fraction of the length, snapped
/// back to a character boundary; nothing at the end) by `insert`.
pub fn mutate(text: &mut String, cuts: &[(proptest::sample::Index, &str)]) {
    for (at, insert) in cuts {
        let mut i = at.index(text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        let end = text[i..].chars().next().map_or(i, |c| i + c.len_utf8());
        text.replace_range(i..end, insert);
    }
}
