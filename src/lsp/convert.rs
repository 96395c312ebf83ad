//! Between the front end's byte offsets and the Language Server Protocol's positions (0-based
//! line, UTF-16 code units within the line, the protocol's default encoding), and from
//! [`Diagnostic`]s to the protocol's diagnostics.

use crate::diagnostics::{Diagnostic, Severity};
use crate::source::{SourceFile, Span};
use lsp_types as lsp;

/// The protocol position of byte `offset` (clamped to the text).
pub(crate) fn position(file: &SourceFile, offset: u32) -> lsp::Position {
    let starts = file.line_starts();
    let offset = offset.min(file.text.len() as u32);
    let line = match starts.binary_search(&offset) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };
    let start = starts.get(line).copied().unwrap_or(0) as usize;
    let before = file.text.get(start..offset as usize).unwrap_or("");
    lsp::Position { line: line as u32, character: before.encode_utf16().count() as u32 }
}

/// The byte offset of a protocol position (a position past the line's end is its end).
pub(crate) fn offset(file: &SourceFile, position: lsp::Position) -> u32 {
    let starts = file.line_starts();
    let Some(&start) = starts.get(position.line as usize) else { return file.text.len() as u32 };
    let end = starts.get(position.line as usize + 1).map_or(file.text.len(), |&e| e as usize);
    let line = file.text.get(start as usize..end).unwrap_or("");
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= position.character || c == '\n' || c == '\r' {
            return start + i as u32;
        }
        units += c.len_utf16() as u32;
    }
    end as u32
}

pub(crate) fn range(file: &SourceFile, span: Span) -> lsp::Range {
    lsp::Range { start: position(file, span.start), end: position(file, span.end.max(span.start)) }
}

/// A front-end diagnostic as the protocol's: the primary label's range (the file's start for a
/// diagnostic without a place), the code, the message with its `help:`/`note:` lines, the other
/// labels as related information.
pub(crate) fn diagnostic(file: &SourceFile, uri: &lsp::Uri, d: &Diagnostic) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    for h in &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = (d.labels.iter().skip(1))
        .map(|l| lsp::DiagnosticRelatedInformation { location: lsp::Location { uri: uri.clone(), range: range(file, l.span) }, message: l.message.clone() })
        .collect();
    lsp::Diagnostic {
        range: d.labels.first().map_or_else(lsp::Range::default, |l| range(file, l.span)),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("xmv-rs".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        // `𝔸` is 4 bytes and 2 UTF-16 units; `é` 2 bytes and 1 unit.
        let file = SourceFile::new("m.smv", "-- é𝔸\r\nVAR x;\n");
        let x = file.text.find('x').unwrap() as u32;
        assert_eq!(position(&file, x), lsp::Position { line: 1, character: 4 });
        assert_eq!(offset(&file, lsp::Position { line: 1, character: 4 }), x);
        let after = file.text.find('\r').unwrap() as u32;
        assert_eq!(position(&file, after), lsp::Position { line: 0, character: 6 });
        assert_eq!(offset(&file, lsp::Position { line: 0, character: 6 }), after);
        assert_eq!(offset(&file, lsp::Position { line: 0, character: 60 }), after, "past the line's end: its end");
        assert_eq!(offset(&file, lsp::Position { line: 9, character: 0 }), file.text.len() as u32);
    }
}
