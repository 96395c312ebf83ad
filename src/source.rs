//! Source files and byte spans.
//!
//! Every later stage refers to source text through [`Span`] (a half-open byte range into one
//! [`SourceFile`]). Spans are always on UTF-8 character boundaries of the *decoded* text: input
//! that is not valid UTF-8 is decoded lossily (U+FFFD) before parsing, so no stage ever sees a
//! byte that does not belong to a character.

use std::ops::Range;

/// A half-open byte range `start..end` into a [`SourceFile`]'s text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    /// The smallest span covering both.
    pub(crate) fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A source file: its display name, its text (valid UTF-8), and the byte offset of every line.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0u32];
        // `match_indices` of a char searches with memchr.
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        SourceFile { name: name.into(), text, line_starts }
    }

    /// Decodes raw bytes, replacing invalid UTF-8 sequences with U+FFFD, and strips a UTF-8 BOM.
    pub fn from_bytes(name: impl Into<String>, bytes: &[u8]) -> SourceFile {
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
        SourceFile::new(name, text)
    }

    /// Reads a file from disk; the error is the I/O error's text.
    pub fn read(path: &std::path::Path) -> Result<SourceFile, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        // Valid UTF-8 (the usual case) becomes the text without a copy.
        match String::from_utf8(bytes) {
            Ok(mut text) => {
                if text.starts_with('\u{feff}') {
                    text.drain(..'\u{feff}'.len_utf8());
                }
                Ok(SourceFile::new(path.display().to_string(), text))
            }
            Err(e) => Ok(SourceFile::from_bytes(path.display().to_string(), e.as_bytes())),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub(crate) fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map_or(end - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text a span covers (empty if the span is out of range).
    pub(crate) fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    pub(crate) fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
}
