//! Diagnostics as data: the form `--format json` and `--format sarif` carry.
//!
//! [`DiagnosticData`] is a [`Diagnostic`] with its byte spans resolved against the source file to
//! 1-based lines and columns (columns count characters, as the text renderer's `file:line:col`
//! does). It holds exactly what the text renderer draws (code, severity, message, labels with
//! their messages, help and notes), so the text, JSON and SARIF outputs cannot disagree. The JSON
//! schema of this shape is `docs/schema/check-output.schema.json` (`diagnostics` items). The
//! library API (`crate::api`) re-exports both types.

use super::{Diagnostic, Severity};
use crate::source::{SourceFile, Span};
use serde::Serialize;

/// One diagnostic, every span resolved to line and column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiagnosticData {
    /// The code (`E0101`), as in the README's diagnostics table.
    pub code: &'static str,
    /// `"error"` or `"warning"`.
    pub severity: &'static str,
    /// What is wrong, one sentence.
    pub message: String,
    /// The file the spans refer to.
    pub file: String,
    /// The primary label first (the one the text renderer underlines with `^`); empty for a
    /// diagnostic about the run rather than a place in the file.
    pub labels: Vec<LabelData>,
    /// How to fix it (`= help:` lines of the text rendering).
    pub help: Vec<String>,
    /// Further facts (`= note:` lines).
    pub notes: Vec<String>,
}

/// A labelled span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelData {
    /// The diagnostic's main place (underlined with `^`; the others with `-`).
    pub primary: bool,
    /// The label's text (may be empty).
    pub message: String,
    /// Byte offsets into the file, end exclusive.
    pub start: u32,
    /// See `start`.
    pub end: u32,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column (in characters) of `start`.
    pub column: usize,
    /// 1-based line of `end`.
    pub end_line: usize,
    /// 1-based column (in characters) of `end`.
    pub end_column: usize,
}

impl Severity {
    /// The word the renderers print: `error` or `warning`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl Diagnostic {
    /// This diagnostic with its spans resolved in `file`.
    pub(crate) fn to_data(&self, file: &SourceFile) -> DiagnosticData {
        DiagnosticData {
            code: self.code,
            severity: self.severity.word(),
            message: self.message.clone(),
            file: file.name.clone(),
            labels: self.labels.iter().enumerate().map(|(i, l)| label_data(file, i == 0, l.span, &l.message)).collect(),
            help: self.help.clone(),
            notes: self.notes.clone(),
        }
    }
}

fn label_data(file: &SourceFile, primary: bool, span: Span, message: &str) -> LabelData {
    let len = file.text.len() as u32;
    let start = span.start.min(len);
    let end = span.end.clamp(start, len);
    let (line, column) = file.line_col(start);
    let (end_line, end_column) = file.line_col(end);
    LabelData { primary, message: message.to_string(), start, end, line, column, end_line, end_column }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_become_lines_and_character_columns() {
        let file = SourceFile::new("m.smv", "MODULE main\nVAR é : boolean; x : foo;\n");
        let start = file.text.find("foo").unwrap();
        let d = Diagnostic::error("E0101", "unknown module `foo`", Span::new(start, start + 3))
            .with_label_message("not declared")
            .with_secondary(Span::new(0, 6), "in this module")
            .with_help("declare it");
        let data = d.to_data(&file);
        assert_eq!((data.code, data.severity, data.file.as_str()), ("E0101", "error", "m.smv"));
        let l = &data.labels[0];
        // `é` is two bytes but one column.
        assert_eq!((l.primary, l.line, l.column, l.end_line, l.end_column), (true, 2, 22, 2, 25));
        assert_eq!((l.start as usize, l.end as usize), (start, start + 3));
        assert_eq!((data.labels[1].primary, data.labels[1].line, data.labels[1].column), (false, 1, 1));
        assert_eq!(data.help, ["declare it"]);
    }

    #[test]
    fn spans_past_the_end_are_clamped() {
        let file = SourceFile::new("m.smv", "MODULE main");
        let data = Diagnostic::error("E0001", "x", Span::new(50, 90)).to_data(&file);
        assert_eq!((data.labels[0].start, data.labels[0].end, data.labels[0].column), (11, 11, 12));
    }

    #[test]
    fn a_diagnostic_about_the_run_has_no_labels_in_text_or_data() {
        let file = SourceFile::new("m.smv", "MODULE main\n");
        let d = Diagnostic::global(Severity::Error, "E0601", "engines disagree on spec 3");
        assert_eq!(d.render(&file), "error[E0601]: engines disagree on spec 3\n\n");
        assert!(d.to_data(&file).labels.is_empty());
    }
}
