//! NuSMV 2.5.4's `write_flat_model [-o FILE]` (and the batch mode's `-ofm FILE`, which sets
//! `output_flatten_model_file`): the flattened model, written by
//! [`crate::semantics::flat_model`], to the file named by `-o`, else by
//! `output_flatten_model_file`, else to stdout.
//!
//! As NuSMV's command: the file is opened first (`Unable to open file "F".` and status 1 when it
//! cannot be), then the model must be read and flattened (NuSMV's messages otherwise); the
//! `PSLSPEC` warning goes to stderr. `-A` (the anonymised model) is refused with a message.

use super::{Session, Stage, Status};
use std::io::Write;

impl Session<'_> {
    /// `write_flat_model [-A] [-m] [-o FILE]`.
    pub(crate) fn write_flat_model(&mut self, file: Option<&str>, anonymised: bool) -> Status {
        if anonymised {
            return self.fail("xmv-rs: write_flat_model -A (the anonymised model) is not supported");
        }
        let target = file.map(str::to_string).or_else(|| self.get("output_flatten_model_file").map(str::to_string));
        let mut sink: Box<dyn Write> = match &target {
            Some(path) => match std::fs::File::create(path) {
                Ok(f) => Box::new(std::io::BufWriter::new(f)),
                Err(_) => return self.fail(&format!("Unable to open file \"{path}\".")),
            },
            None => Box::new(Vec::<u8>::new()),
        };
        if let Err(s) = self.need(Stage::Flattened) {
            return s;
        }
        let Some(loaded) = &self.loaded else { return 1 };
        let written = write(&loaded.file);
        match written {
            Ok(model) => {
                let _ = self.err.write_all(model.warnings.as_bytes());
                let result = match target {
                    Some(_) => sink.write_all(model.text.as_bytes()).and_then(|_| sink.flush()),
                    None => self.out.write_all(model.text.as_bytes()),
                };
                match result {
                    Ok(()) => 0,
                    Err(e) => self.fail(&format!("xmv-rs: writing the flat model failed: {e}")),
                }
            }
            Err(message) => self.fail(&message),
        }
    }
}

/// Parses `file` again (the session keeps the lowered program, not the parse tree) and writes
/// its flat model, on the front end's stack.
fn write(file: &crate::source::SourceFile) -> Result<crate::semantics::flat_model::FlatModelText, String> {
    let run = || {
        let (program, diags) = crate::syntax::parse(file);
        if diags.iter().any(|d| d.is_error()) {
            return Err("xmv-rs: the model could not be read again to write its flat model".to_string());
        }
        let name = if file.name == "stdin" { "stdin" } else { file.name.as_str() };
        crate::semantics::flat_model::write(&program, &file.text, name)
    };
    std::thread::scope(|s| match std::thread::Builder::new().stack_size(crate::par::FRONT_END_STACK).spawn_scoped(s, run) {
        Ok(handle) => handle.join().unwrap_or_else(|_| Err("xmv-rs: writing the flat model failed".to_string())),
        Err(_) => run(),
    })
}
