//! NuSMV 2.5.4's "cannot assign value V to variable x" in the drop-in mode.
//!
//! NuSMV checks every assignment over all states when it builds the model
//! ([`crate::symbolic::assign_domain`] makes the same check) and stops with
//!
//! ```text
//!
//! file F: line L: cannot assign value V to variable x
//!
//! NuSMV terminated by a signal
//! ```
//!
//! on stderr and status 1. The line is that of the expression node NuSMV's ADD was built from,
//! which its parser stamps with the line of the token after the expression; checked against the
//! oracle: for a right-hand side that is one variable, the line of the token before that
//! variable's name in its declaration (`VAR`, or the `;` of the declaration before);
//! for an `init()` assignment, the line of the file's last token (NuSMV builds the `init` node
//! after reading the whole file); otherwise the line where the right-hand side ends
//! (`case … esac` over several lines: the `esac` line). The drop-in mode prints that text, then
//! xmv-rs's own diagnostic (the state giving the value).

use crate::source::SourceFile;
use crate::symbolic::assign_domain::NusmvViolation;

/// NuSMV's stderr text for `found` in `file`, followed by xmv-rs's diagnostic.
pub(crate) fn message(file: &SourceFile, found: &NusmvViolation) -> String {
    let line = nusmv_line(file, found);
    let mut out = format!("\nfile {}: line {line}: cannot assign value {} to variable {}\n\n", file.name, found.value, found.var);
    out.push_str("NuSMV terminated by a signal\n");
    out.push_str(&found.diagnostic.render(file));
    out
}

/// The line NuSMV 2.5.4 names (see the module doc).
fn nusmv_line(file: &SourceFile, found: &NusmvViolation) -> usize {
    if found.init {
        return last_token_line(&file.text);
    }
    match found.rhs_var {
        Some(decl) => token_line_before(&file.text, file.line_col(decl.start)),
        None => file.line_col(found.span.end.saturating_sub(1).max(found.span.start)).0,
    }
}

/// The 1-based line of the last token before (line, column) (`--` comments skipped).
fn token_line_before(text: &str, (line, col): (usize, usize)) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    for l in (1..=line).rev() {
        let Some(full) = lines.get(l - 1) else { continue };
        let before: String = if l == line { full.chars().take(col.saturating_sub(1)).collect() } else { full.to_string() };
        if !before.split("--").next().unwrap_or("").trim().is_empty() {
            return l;
        }
    }
    line
}

/// The 1-based line of the last character outside comments and white space.
fn last_token_line(text: &str) -> usize {
    let mut last = 1;
    for (i, line) in text.lines().enumerate() {
        let code = line.split("--").next().unwrap_or("");
        if !code.trim().is_empty() {
            last = i + 1;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::{last_token_line, token_line_before};

    #[test]
    fn last_token_line_skips_comments_and_blank_lines() {
        assert_eq!(last_token_line("MODULE main\nVAR x : boolean;\n-- end\n\n"), 2);
        assert_eq!(last_token_line(""), 1);
    }

    #[test]
    fn token_before_a_declaration() {
        let text = "MODULE main\nVAR\n  x : 2..3; -- note\n\n  y : 0..5;\n";
        assert_eq!(token_line_before(text, (5, 3)), 3);
        assert_eq!(token_line_before("VAR x : 0..3; y : 0..5;", (1, 15)), 1);
    }
}
