//! JSON with byte spans, for diagnostics that point into RSMCheck files.
//!
//! [`parse`] first runs `serde_json` over the text: its error (line, column) becomes a byte
//! offset, so syntax errors get serde_json's well-tested messages. Valid text is then read a second
//! time by a small recursive-descent reader that keeps the span of every value and object key
//! (serde_json's `Value` has none). Nesting depth is bounded by serde_json's recursion limit
//! (128), which the first pass enforces, so the second pass cannot overflow the stack.

use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};

#[derive(Clone, Debug)]
pub(crate) struct JVal {
    pub kind: JKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub(crate) enum JKind {
    Null,
    Bool(bool),
    Num,
    Str(String),
    Arr(Vec<JVal>),
    /// Members in source order: key, key span, value.
    Obj(Vec<(String, Span, JVal)>),
}

impl JVal {
    pub(crate) fn kind_name(&self) -> &'static str {
        match self.kind {
            JKind::Null => "null",
            JKind::Bool(_) => "a boolean",
            JKind::Num => "a number",
            JKind::Str(_) => "a string",
            JKind::Arr(_) => "an array",
            JKind::Obj(_) => "an object",
        }
    }
    pub(crate) fn get(&self, key: &str) -> Option<&JVal> {
        match &self.kind {
            JKind::Obj(members) => members.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
            _ => None,
        }
    }
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            JKind::Str(s) => Some(s),
            _ => None,
        }
    }
    pub(crate) fn as_array(&self) -> Option<&[JVal]> {
        match &self.kind {
            JKind::Arr(items) => Some(items),
            _ => None,
        }
    }
    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self.kind {
            JKind::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// Parses a whole file; a syntax error is one diagnostic (code `E0801`).
pub(crate) fn parse(file: &SourceFile) -> Result<JVal, Diagnostic> {
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&file.text) {
        let offset = offset_of(file, e.line(), e.column());
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_string();
        return Err(Diagnostic::error("E0801", format!("invalid JSON: {message}"), Span::new(offset, offset))
            .with_help("RSMCheck models are JSON objects with `initial_component`, `initial_node` and `components`"));
    }
    let mut reader = Reader { text: file.text.as_bytes(), src: &file.text, pos: 0 };
    reader.skip_ws();
    let value = reader.value();
    value.ok_or_else(|| Diagnostic::error("E0801", "invalid JSON", Span::new(reader.pos, reader.pos)))
}

/// Byte offset of serde_json's 1-based line and (byte) column, clamped to a character boundary.
fn offset_of(file: &SourceFile, line: usize, column: usize) -> usize {
    let starts = file.line_starts();
    let line_start = starts.get(line.saturating_sub(1)).map_or(file.text.len(), |&s| s as usize);
    let mut offset = (line_start + column.saturating_sub(1)).min(file.text.len());
    while !file.text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

struct Reader<'a> {
    text: &'a [u8],
    src: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.text.len() && matches!(self.text[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }
    fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        if self.text.get(self.pos) == Some(&b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn value(&mut self) -> Option<JVal> {
        self.skip_ws();
        let start = self.pos;
        let kind = match *self.text.get(self.pos)? {
            b'{' => {
                self.pos += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.skip_ws();
                        let key_start = self.pos;
                        let key = self.string()?;
                        let key_span = Span::new(key_start, self.pos);
                        if !self.eat(b':') {
                            return None;
                        }
                        let v = self.value()?;
                        members.push((key, key_span, v));
                        if self.eat(b',') {
                            continue;
                        }
                        if self.eat(b'}') {
                            break;
                        }
                        return None;
                    }
                }
                JKind::Obj(members)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value()?);
                        if self.eat(b',') {
                            continue;
                        }
                        if self.eat(b']') {
                            break;
                        }
                        return None;
                    }
                }
                JKind::Arr(items)
            }
            b'"' => JKind::Str(self.string()?),
            b't' => self.keyword("true", JKind::Bool(true))?,
            b'f' => self.keyword("false", JKind::Bool(false))?,
            b'n' => self.keyword("null", JKind::Null)?,
            _ => {
                while self.pos < self.text.len() && matches!(self.text[self.pos], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    self.pos += 1;
                }
                if self.pos == start {
                    return None;
                }
                JKind::Num
            }
        };
        Some(JVal { kind, span: Span::new(start, self.pos) })
    }
    fn keyword(&mut self, word: &str, kind: JKind) -> Option<JKind> {
        if self.text[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Some(kind)
        } else {
            None
        }
    }
    /// A string literal starting at `pos` (which must be `"`), escapes decoded.
    fn string(&mut self) -> Option<String> {
        if self.text.get(self.pos) != Some(&b'"') {
            return None;
        }
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while self.pos < self.text.len() && self.text[self.pos] != b'"' && self.text[self.pos] != b'\\' {
                self.pos += 1;
            }
            out.push_str(self.src.get(run_start..self.pos)?);
            match self.text.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(out);
                }
                _ => {
                    self.pos += 1;
                    let esc = *self.text.get(self.pos)?;
                    self.pos += 1;
                    match esc {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) && self.text[self.pos..].starts_with(b"\\u") {
                                self.pos += 2;
                                let lo = self.hex4()?;
                                char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF))
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or('\u{fffd}'));
                        }
                        other => out.push(other as char),
                    }
                }
            }
        }
    }
    fn hex4(&mut self) -> Option<u32> {
        let digits = self.src.get(self.pos..self.pos + 4)?;
        self.pos += 4;
        u32::from_str_radix(digits, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_values() {
        let f = SourceFile::new("t.json", "{\"a\": [1, \"x\\u00e9\"], \"b\": true}");
        let v = parse(&f).unwrap();
        let a = v.get("a").unwrap().as_array().unwrap();
        assert_eq!(f.slice(a[1].span), "\"x\\u00e9\"");
        assert_eq!(a[1].as_str(), Some("xé"));
        assert_eq!(v.get("b").unwrap().as_bool(), Some(true));
    }

    #[test]
    fn syntax_error_has_position() {
        let f = SourceFile::new("t.json", "{\n  \"a\": [1,,2]\n}");
        let d = parse(&f).unwrap_err();
        assert_eq!(f.line_col(d.primary_span().start), (2, 11));
        assert!(d.message.starts_with("invalid JSON: "), "{}", d.message);
    }
}
