//! Fuzz target: any bytes through the parser and the diagnostic renderer must not panic, and
//! every diagnostic span must lie inside the text on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xmv_rs::diagnostics::Diagnostics;
use xmv_rs::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let file = SourceFile::from_bytes("fuzz.smv", data);
    let (_program, diags) = xmv_rs::syntax::parse(&file);
    for d in &diags {
        for l in &d.labels {
            let (s, e) = (l.span.start as usize, l.span.end as usize);
            assert!(s <= e && e <= file.text.len());
            assert!(file.text.is_char_boundary(s) && file.text.is_char_boundary(e));
        }
    }
    let mut sink = Diagnostics::new();
    sink.extend(diags);
    let _ = sink.render(&file);
});
