//! Importers never panic: every golden input of `tests/import/` is mutated many times (bytes
//! deleted, replaced, duplicated, lines swapped; CRLF and tabs) and each mutant must come back as
//! a translation or as diagnostics. Fixed seed; `XMV_TEST_CASES` sets mutants per file.

use std::path::PathBuf;
use xmv_rs::import::{ImportFormat, import};
use xmv_rs::source::SourceFile;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

const ALPHABET: &[u8] = b"{}[]\":,<>()-_ \n\r\t#;aZ09\\\xff\xc3";

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(v.len().max(1));
        match rng.below(5) {
            0 if !v.is_empty() => {
                let end = (i + 1 + rng.below(20)).min(v.len());
                v.drain(i..end);
            }
            1 if !v.is_empty() => {
                let at = i.min(v.len() - 1);
                v[at] = ALPHABET[rng.below(ALPHABET.len())];
            }
            2 => v.insert(i.min(v.len()), ALPHABET[rng.below(ALPHABET.len())]),
            3 if !v.is_empty() => {
                let end = (i + rng.below(40)).min(v.len());
                let chunk = v[i..end].to_vec();
                let at = rng.below(v.len());
                v.splice(at..at, chunk);
            }
            _ => v = String::from_utf8_lossy(&v).replace('\n', "\r\n").replace("  ", "\t").into_bytes(),
        }
    }
    v
}

#[test]
fn mutated_inputs_never_panic() {
    let cases: usize = std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(150);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/import");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir).expect("dir").filter_map(|e| e.ok().map(|e| e.path())).collect();
    inputs.sort();
    let mut tried = 0;
    for path in inputs {
        let format = match path.extension().and_then(|e| e.to_str()) {
            Some("json" | "rsm") => ImportFormat::RsmJson,
            Some("pds") => ImportFormat::Pds,
            Some("pdmu") => ImportFormat::Pdmu,
            _ => continue,
        };
        let original = std::fs::read(&path).expect("read");
        let ctl_path = path.with_extension("ctl");
        let ctl_original = std::fs::read(&ctl_path).ok();
        for _ in 0..cases {
            let model = SourceFile::from_bytes("m", &mutate(&mut rng, &original));
            let ctl = ctl_original.as_ref().map(|c| SourceFile::from_bytes("c.ctl", &mutate(&mut rng, c)));
            if let Err(e) = import(format, &model, ctl.as_ref()) {
                assert!(e.diagnostics.has_errors(), "failure without an error for a mutant of {}", path.display());
                let _ = e.diagnostics.render(if e.in_ctl { ctl.as_ref().unwrap_or(&model) } else { &model });
            }
            tried += 1;
        }
    }
    assert!(tried > 1000, "only {tried} mutants");
}

#[test]
fn empty_and_binary_inputs_are_errors() {
    for format in [ImportFormat::RsmJson, ImportFormat::Pds, ImportFormat::Pdmu] {
        for bytes in [&b""[..], b"\xff\xfe\x00\x01", b"\n\n\n", b"\t \r\n"] {
            let f = SourceFile::from_bytes("x", bytes);
            assert!(import(format, &f, None).is_err(), "{format:?} accepted {bytes:?}");
        }
    }
}
