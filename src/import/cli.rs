//! `xmv-rs import FORMAT INPUT [--ctl FILE] -o OUT`: reading the files, rendering diagnostics,
//! writing the output, exit codes (0 written, 2 input errors). `main.rs` only parses arguments.

use super::{ImportFormat, ImportOptions, import_with};
use crate::source::SourceFile;
use std::io::Write;
use std::path::Path;

/// Runs the import command; diagnostics and warnings go to `stderr`.
pub fn run(format: ImportFormat, input: &Path, ctl: Option<&Path>, output: &Path, options: &ImportOptions, stderr: &mut dyn Write) -> i32 {
    let input_file = match SourceFile::read(input) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return 2;
        }
    };
    let ctl_file = match ctl.map(SourceFile::read).transpose() {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return 2;
        }
    };
    match import_with(format, &input_file, ctl_file.as_ref(), options) {
        Ok(imported) => {
            for (w, in_ctl) in &imported.warnings {
                let file = if *in_ctl { ctl_file.as_ref().unwrap_or(&input_file) } else { &input_file };
                let _ = stderr.write_all(w.render(file).as_bytes());
            }
            if let Err(e) = std::fs::write(output, &imported.smv) {
                let _ = writeln!(stderr, "error: cannot write `{}`: {e}", output.display());
                return 2;
            }
            0
        }
        Err(e) => {
            let file = if e.in_ctl { ctl_file.as_ref().unwrap_or(&input_file) } else { &input_file };
            let _ = stderr.write_all(e.diagnostics.render(file).as_bytes());
            2
        }
    }
}
