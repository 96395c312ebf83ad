//! Long source lines cut to a window around the labels, for rendering diagnostics.
//!
//! Generated models have lines of thousands of characters (an imported program's `pc`
//! enumeration, a long `case` condition). A caret diagnostic on such a line would print all of
//! it. [`WindowedSource`] is the text codespan-reporting renders instead: every line longer than
//! [`MAX_LINE`] characters is replaced by a window of at most about [`MAX_LINE`] characters
//! around the label boundaries on it, with `…` marking what was cut. Lines keep their numbers
//! (nothing else changes), and the reported column is the column in the real line, so the
//! `file:line:col` header is exactly what it would be without windowing.
//!
//! Assumes the label offsets it is given are in range and on character boundaries (the
//! renderer clamps them first).

use crate::source::SourceFile;
use codespan_reporting::files::{Error, Files};
use std::ops::Range;

/// Lines longer than this many characters are windowed.
pub(super) const MAX_LINE: usize = 160;
/// Characters kept on each side of the labels of a windowed line.
const CONTEXT: usize = 60;
const ELLIPSIS: &str = "…";

/// A kept piece of the real text at some position of the shown text.
#[derive(Clone, Copy, Debug)]
struct Segment {
    shown: usize,
    real: usize,
    len: usize,
}

pub(super) struct WindowedSource<'a> {
    file: &'a SourceFile,
    text: String,
    line_starts: Vec<usize>,
    /// In increasing order of both `shown` and `real`.
    segments: Vec<Segment>,
}

/// True if some line of `text` is longer than [`MAX_LINE`] characters (bytes are a cheap upper
/// bound checked first).
pub(super) fn has_long_line(text: &str) -> bool {
    text.split('\n').any(|l| l.len() > MAX_LINE && l.chars().count() > MAX_LINE)
}

impl<'a> WindowedSource<'a> {
    /// The shown text of `file`, windowing long lines around the byte offsets `points` (label
    /// starts and ends).
    pub(super) fn new(file: &'a SourceFile, points: &[usize]) -> WindowedSource<'a> {
        let real = file.text.as_str();
        let mut out = WindowedSource { file, text: String::with_capacity(real.len().min(1 << 16)), line_starts: vec![0], segments: vec![] };
        let mut start = 0;
        while start <= real.len() {
            let newline = real[start..].find('\n').map(|i| start + i);
            let end = newline.unwrap_or(real.len());
            let line = &real[start..end];
            if line.len() > MAX_LINE && line.chars().count() > MAX_LINE {
                let on_line: Vec<usize> = points.iter().copied().filter(|&p| p >= start && p <= end).collect();
                let (lo, hi) = window(real, start, end, &on_line);
                if lo > start {
                    out.text.push_str(ELLIPSIS);
                }
                out.keep(real, lo, hi);
                if hi < end {
                    out.text.push_str(ELLIPSIS);
                }
            } else {
                out.keep(real, start, end);
            }
            match newline {
                Some(nl) => {
                    out.keep(real, nl, nl + 1);
                    out.line_starts.push(out.text.len());
                    start = nl + 1;
                }
                None => break,
            }
        }
        out
    }

    fn keep(&mut self, real: &str, from: usize, to: usize) {
        self.segments.push(Segment { shown: self.text.len(), real: from, len: to - from });
        self.text.push_str(&real[from..to]);
    }

    /// The shown position of a real byte offset (a cut-away offset maps to the nearest edge).
    pub(super) fn to_shown(&self, real: usize) -> usize {
        let i = self.segments.partition_point(|s| s.real <= real);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some(s) => s.shown + (real - s.real).min(s.len),
            None => 0,
        }
    }

    /// The real byte offset of a shown position (inside an `…`: the edge of the cut).
    fn to_real(&self, shown: usize) -> usize {
        let i = self.segments.partition_point(|s| s.shown <= shown);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some(s) => s.real + (shown - s.shown).min(s.len),
            None => 0,
        }
    }

    #[cfg(test)]
    fn shown_text(&self) -> &str {
        &self.text
    }
}

/// The byte range `[lo, hi)` of line `[start, end)` to show: the labels' extent with
/// [`CONTEXT`] characters around it, or the line's beginning when no label is on it.
fn window(real: &str, start: usize, end: usize, points: &[usize]) -> (usize, usize) {
    let (Some(&first), Some(&last)) = (points.iter().min(), points.iter().max()) else {
        return (start, advance(real, start, end, MAX_LINE));
    };
    let lo = retreat(real, start, first, CONTEXT);
    let hi = advance(real, last, end, CONTEXT);
    (lo, hi)
}

/// The offset `n` characters after `from`, at most `limit`.
fn advance(real: &str, from: usize, limit: usize, n: usize) -> usize {
    real[from..limit].char_indices().nth(n).map_or(limit, |(i, _)| from + i)
}

/// The offset `n` characters before `from`, at least `limit`.
fn retreat(real: &str, limit: usize, from: usize, n: usize) -> usize {
    real[limit..from].char_indices().rev().nth(n.saturating_sub(1)).map_or(limit, |(i, _)| limit + i)
}

impl<'a> Files<'a> for WindowedSource<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(self.file.name.as_str())
    }

    fn source(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, Error> {
        Ok(self.line_starts.partition_point(|&s| s <= byte_index).saturating_sub(1))
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, Error> {
        let start = *self.line_starts.get(line_index).ok_or(Error::LineTooLarge { given: line_index, max: self.line_starts.len() - 1 })?;
        let end = self.line_starts.get(line_index + 1).copied().unwrap_or(self.text.len());
        Ok(start..end)
    }

    /// The column in the real line, so the header is the same as without windowing.
    fn column_number(&'a self, (): (), _line_index: usize, byte_index: usize) -> Result<usize, Error> {
        let real = self.to_real(byte_index);
        let offset = u32::try_from(real).unwrap_or(u32::MAX);
        Ok(self.file.line_col(offset).1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_kept_and_long_ones_windowed_around_the_label() {
        let long = format!("x := {};", (0..100).map(|i| format!("v{i}")).collect::<Vec<_>>().join(" + "));
        let text = format!("MODULE main\n{long}\nDONE\n");
        let file = SourceFile::new("f.smv", text.clone());
        let target = text.find("v50").expect("in the text");
        let w = WindowedSource::new(&file, &[target, target + 3]);
        let lines: Vec<&str> = w.shown_text().split('\n').collect();
        assert_eq!(lines[0], "MODULE main");
        assert_eq!(lines[2], "DONE");
        assert!(lines[1].starts_with('…') && lines[1].ends_with('…'), "{}", lines[1]);
        assert!(lines[1].contains("v50") && lines[1].chars().count() <= 2 * CONTEXT + 3 + 2, "{}", lines[1]);
        let shown = w.to_shown(target);
        assert_eq!(&w.shown_text()[shown..shown + 3], "v50");
        assert_eq!(w.to_real(shown), target);
        assert_eq!(w.column_number((), 1, shown).ok(), Some(file.line_col(target as u32).1));
        assert_eq!(w.line_index((), shown).ok(), Some(1));
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let text = format!("{}X{}\n", "é".repeat(300), "ü".repeat(300));
        let file = SourceFile::new("f.smv", text.clone());
        let x = text.find('X').expect("X");
        let w = WindowedSource::new(&file, &[x, x + 1]);
        let shown = w.to_shown(x);
        assert_eq!(&w.shown_text()[shown..shown + 1], "X");
        assert_eq!(w.column_number((), 0, shown).ok(), Some(301));
    }

    #[test]
    fn long_line_without_labels_shows_its_beginning() {
        let text = "a".repeat(1000);
        let file = SourceFile::new("f.smv", text);
        let w = WindowedSource::new(&file, &[]);
        assert_eq!(w.shown_text().chars().count(), MAX_LINE + 1);
        assert!(w.shown_text().ends_with('…'));
    }
}
