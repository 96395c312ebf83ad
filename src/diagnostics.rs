//! Diagnostics: what every stage reports about the user's input, and how it is rendered.
//!
//! A [`Diagnostic`] has a severity, a stable code (`E0xxx` errors, `W0xxx` warnings, listed in
//! the README), a message saying what is wrong, labelled spans (the first is primary and gets the
//! caret) and optional help/notes saying how to fix it. Stages push diagnostics into a
//! [`Diagnostics`] sink and keep going where they can, so one run reports all errors of a file
//! (up to [`Diagnostics::LIMIT`]).
//!
//! Rendering uses `codespan-reporting` (chosen over ariadne because it takes byte spans natively,
//! which is what our AST carries; ariadne counts characters by default and panics on byte spans
//! that are not character boundaries). Output is plain text with `file:line:col`, the source line
//! and a caret underline; the exact text is pinned by golden tests.

pub(crate) mod data;
mod window;

use crate::source::{SourceFile, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use window::WindowedSource;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code, e.g. `E0101`.
    pub code: &'static str,
    pub message: String,
    /// Primary label first (it gets the `^^^` underline); further labels are secondary.
    pub labels: Vec<Label>,
    /// `help: …` lines: how to fix it.
    pub help: Vec<String>,
    /// `note: …` lines: extra facts (e.g. a state, a path).
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub(crate) fn error(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message, span)
    }
    pub(crate) fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message, span)
    }
    /// A diagnostic about the run as a whole (no place in the file), e.g. a checker failure.
    pub(crate) fn global(severity: Severity, code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity, code, message: message.into(), labels: vec![], help: vec![], notes: vec![] }
    }
    fn new(severity: Severity, code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { severity, code, message: message.into(), labels: vec![Label { span, message: String::new() }], help: vec![], notes: vec![] }
    }
    /// Sets the primary label's message (shown after the caret).
    pub(crate) fn with_label_message(mut self, message: impl Into<String>) -> Diagnostic {
        if let Some(l) = self.labels.first_mut() {
            l.message = message.into();
        }
        self
    }
    pub(crate) fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into() });
        self
    }
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }
    pub(crate) fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn primary_span(&self) -> Span {
        self.labels.first().map_or(Span::default(), |l| l.span)
    }

    /// Renders as plain text: header, `┌─ file:line:col`, source lines with carets, help and notes.
    /// Lines longer than [`window::MAX_LINE`] characters are shown as a window around the
    /// labels (see [`window`]).
    pub fn render(&self, file: &SourceFile) -> String {
        let len = file.text.len();
        let clamp = |s: Span| {
            let start = (s.start as usize).min(len);
            let end = (s.end as usize).clamp(start, len);
            start..end
        };
        let ranges: Vec<std::ops::Range<usize>> = self.labels.iter().map(|l| clamp(l.span)).collect();
        let config = term::Config::default();
        let rendered = if window::has_long_line(&file.text) {
            let points: Vec<usize> = ranges.iter().flat_map(|r| [r.start, r.end]).collect();
            let files = WindowedSource::new(file, &points);
            let shown: Vec<std::ops::Range<usize>> = ranges.iter().map(|r| files.to_shown(r.start)..files.to_shown(r.end)).collect();
            term::emit_into_string(&config, &files, &self.to_codespan(&shown))
        } else {
            let files = SimpleFile::new(file.name.as_str(), file.text.as_str());
            term::emit_into_string(&config, &files, &self.to_codespan(&ranges))
        };
        rendered.unwrap_or_else(|_| {
            // Only reachable if the span math above were wrong; never lose the message.
            let (line, col) = file.line_col(self.primary_span().start);
            format!("{}[{}]: {}\n  at {}:{line}:{col}\n", self.severity.word(), self.code, self.message, file.name)
        })
    }

    /// The codespan diagnostic with the labels at `ranges` (parallel to `self.labels`).
    fn to_codespan(&self, ranges: &[std::ops::Range<usize>]) -> cs::Diagnostic<()> {
        let d = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
        }
        .with_code(self.code)
        .with_message(&self.message);
        let labels = self.labels.iter().zip(ranges).enumerate().map(|(i, (l, r))| {
            let label = if i == 0 { cs::Label::primary((), r.clone()) } else { cs::Label::secondary((), r.clone()) };
            label.with_message(&l.message)
        });
        let notes = self.help.iter().map(|h| format!("help: {h}")).chain(self.notes.iter().map(|n| format!("note: {n}")));
        d.with_labels(labels.collect()).with_notes(notes.collect())
    }
}

/// A sink for diagnostics with a cap on how many errors are kept.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
    suppressed: usize,
}

impl Diagnostics {
    /// At most this many errors are reported per file; further ones are counted, not shown.
    pub(crate) const LIMIT: usize = 50;

    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }
    pub(crate) fn push(&mut self, d: Diagnostic) {
        if d.is_error() && self.error_count() >= Self::LIMIT {
            self.suppressed += 1;
        } else {
            self.items.push(d);
        }
    }
    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        for d in ds {
            self.push(d);
        }
    }
    pub(crate) fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.is_error())
    }
    pub(crate) fn suppressed(&self) -> usize {
        self.suppressed
    }
    /// Whether an error with this code is among the diagnostics.
    pub(crate) fn has_code(&self, code: &str) -> bool {
        self.items.iter().any(|d| d.code == code)
    }
    /// All diagnostics rendered, in source order (stable for equal positions), plus a summary
    /// line when errors were suppressed.
    pub fn render(&self, file: &SourceFile) -> String {
        let mut sorted: Vec<&Diagnostic> = self.items.iter().collect();
        sorted.sort_by_key(|d| d.primary_span().start);
        let mut out = String::new();
        for d in sorted {
            out.push_str(&d.render(file));
        }
        if self.suppressed > 0 {
            out.push_str(&format!("error: {} further errors not shown\n", self.suppressed));
        }
        out
    }
}
