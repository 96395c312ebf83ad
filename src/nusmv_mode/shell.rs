//! NuSMV's command loops: `source FILE` / `-source FILE` (stops at the first failing command
//! with `aborting 'source FILE'`) and the interactive loop of `-int` (prompt `NuSMV > ` on stdout;
//! at end of input NuSMV says `Use "quit" to leave NuSMV.` and gives up after five times).

use super::commands::{run, split_line};
use super::session::{Session, Status};
use std::io::BufRead;

/// Runs one line of commands; stops at the first failing one. `source` nests.
pub(crate) fn run_line(session: &mut Session, line: &str, depth: usize) -> Status {
    for words in split_line(line) {
        let status = if words[0] == "source" { source(session, words.get(1).map(String::as_str), depth + 1) } else { run(session, &words) };
        if status != 0 || session.quit {
            return status;
        }
    }
    0
}

/// `source FILE`.
pub(crate) fn source(session: &mut Session, file: Option<&str>, depth: usize) -> Status {
    let Some(file) = file else {
        let _ = writeln!(session.err, "usage: source [-h][-p][-s][-x] <file> [<args>]");
        return 1;
    };
    if depth > 32 {
        let _ = writeln!(session.err, "source: nesting too deep (`{file}` sources itself?)");
        return 1;
    }
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(_) => {
            let _ = writeln!(session.err, "Could not open file {file}.");
            return 1;
        }
    };
    for line in text.lines() {
        let status = run_line(session, line, depth);
        if session.quit {
            return status;
        }
        if status != 0 {
            let _ = writeln!(session.err, "aborting 'source {file}'");
            return status;
        }
    }
    0
}

/// The interactive loop, reading `input` until `quit` or the fifth end of input.
pub(crate) fn interactive(session: &mut Session, input: &mut dyn BufRead) {
    let mut ends = 0;
    while !session.quit {
        let _ = write!(session.out, "NuSMV > ");
        let _ = session.out.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                ends += 1;
                if ends > 5 {
                    break;
                }
                let _ = writeln!(session.err, "\nUse \"quit\" to leave NuSMV.");
            }
            Ok(_) => {
                run_line(session, &line, 0);
            }
        }
    }
}
