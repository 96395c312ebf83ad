//! Running NuSMV 2.5.4 in the tests that compare with it (`tests/flat_nusmv.rs`,
//! `tests/bdd_differential.rs`, `tests/ltl_nusmv.rs`): where the binary is (`NUSMV`; tests skip cleanly when it is
//! unset or not a file), running a checker on a file, running a program under NuSMV's name (the
//! drop-in tests), and reading verdict lines.

use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The NuSMV binary named by `NUSMV`, or `None` (after saying why `test` is skipped).
pub fn binary(test: &str) -> Option<PathBuf> {
    let Some(path) = std::env::var_os("NUSMV").map(PathBuf::from) else {
        eprintln!("skipping {test}: NUSMV is not set");
        return None;
    };
    if !path.is_file() {
        eprintln!("skipping {test}: NUSMV={} is not a file", path.display());
        return None;
    }
    Some(path)
}

/// Runs `bin` with `args` on `file` (NuSMV with `-dcx`, xmv-rs with `check …`); returns its exit
/// code and stdout.
pub fn run(bin: &Path, args: &[&str], file: &Path) -> (Option<i32>, String) {
    let out = Command::new(bin).args(args).arg(file).output().expect("run a checker");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `NuSMV -dcx` on the model text `smv` (through a temporary file named after `case`); its stdout.
pub fn run_text(bin: &Path, smv: &str, case: usize) -> String {
    let file = std::env::temp_dir().join(format!("xmv-diff-{}-{case}.smv", std::process::id()));
    std::fs::write(&file, smv).expect("write temporary model");
    let (_, out) = run(bin, &["-dcx"], &file);
    let _ = std::fs::remove_file(&file);
    out
}

/// The verdict lines of one kind (`-- specification` or `-- invariant`), in output order, with
/// runs of spaces collapsed.
pub fn verdict_lines(text: &str, kind: &str) -> Vec<String> {
    text.lines().filter(|l| l.starts_with(kind)).map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
}

/// Runs `program` under the name `argv0` (`NuSMV` selects xmv-rs's drop-in mode) in `dir`, with
/// `stdin` as its input; returns (status, stdout, stderr).
pub fn run_named<S: AsRef<OsStr>>(program: &Path, argv0: &str, dir: &Path, args: &[S], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(program)
        .arg0(argv0)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the program");
    {
        let mut input = child.stdin.take().expect("stdin");
        let _ = input.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("wait");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Stdout without NuSMV's/xmv-rs's `*** ` banner and the blank lines before the first verdict
/// (the recorded-output tests compare the rest byte for byte).
pub fn without_banner(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let lines: Vec<&str> = text.split('\n').filter(|l| !l.starts_with("*** ")).skip_while(|l| l.is_empty()).collect();
    lines.join("\n")
}

/// Writes `text` to a temporary `.smv` file named by `tag`, the process and `name`.
pub fn temp_model(tag: &str, name: &str, text: &str) -> PathBuf {
    let file = std::env::temp_dir().join(format!("xmv-{tag}-{}-{name}.smv", std::process::id()));
    std::fs::write(&file, text).expect("write temporary model");
    file
}
