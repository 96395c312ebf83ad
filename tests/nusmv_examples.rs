//! Whole-output comparison with NuSMV 2.5.4 over a folder of `.smv` files (NuSMV's `examples/`).
//!
//! Runs only when `NUSMV` points to the NuSMV executable and `NUSMV_EXAMPLES` to a folder;
//! otherwise it says why it skipped and passes. Every `.smv` file under the folder is run by both
//! tools with `-dcx` (and, when both finish that, again with traces), each under a time limit
//! (`XMV_EXAMPLE_SECONDS`, default 60); both check the PSL specs too (session 42; before,
//! NuSMV got `-ips` because xmv-rs skipped them). Per file it compares the verdict
//! lines (`-- specification …`, `-- invariant …`, COMPUTE's `-- the result of …`) and the whole stdout (NuSMV's banner and blank lines
//! removed), and prints a summary table on stderr (`cargo test --release --test nusmv_examples --
//! --nocapture`). It fails only when a spec both tools decided has different verdicts; files
//! xmv-rs rejects and runs that time out are listed, not failures.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a run ended.
enum Run {
    Done { code: i32, stdout: String },
    TimedOut,
}

/// Runs `cmd` with stdout in a temporary file, killing it after `limit`.
fn run(mut cmd: Command, limit: Duration, tag: &str) -> Run {
    let out_path = std::env::temp_dir().join(format!("xmv-examples-{}-{tag}.out", std::process::id()));
    let Ok(out) = File::create(&out_path) else { return Run::TimedOut };
    let Ok(mut child) = cmd.stdout(Stdio::from(out)).stderr(Stdio::null()).stdin(Stdio::null()).spawn() else { return Run::TimedOut };
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_file(&out_path);
    match status {
        Some(s) => Run::Done { code: s.code().unwrap_or(-1), stdout },
        None => Run::TimedOut,
    }
}

/// NuSMV's stdout without its banner (`*** …`), its process warnings and blank lines.
fn normalise(text: &str) -> Vec<String> {
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("*** ") && !l.starts_with("WARNING *** ")).map(str::to_string).collect()
}

fn is_verdict(line: &str) -> bool {
    line.starts_with("-- specification ") || line.starts_with("-- invariant ") || line.starts_with("-- the result of ")
}

/// A verdict line split into the spec (`-- specification AG p IN a`) and its verdict (`true`,
/// or a COMPUTE's `6`; NuSMV writes `… IN sis 6` for a COMPUTE of instance `s`).
fn split_verdict(line: &str) -> Option<(String, String)> {
    let line = line.trim_end();
    let (spec, verdict) = line.rsplit_once("is ")?;
    Some((spec.trim_end().to_string(), verdict.to_string()))
}

/// Specs both tools decided with different verdicts. Each xmv-rs verdict is matched with the
/// first unused NuSMV verdict of the same spec text (xmv-rs skips PSL with SEREs and LTL in procedure modules, so the lists may differ).
fn disagreements(nusmv: &[String], xmv: &[String]) -> Vec<String> {
    let mut theirs: Vec<Option<(String, String)>> = nusmv.iter().filter(|l| is_verdict(l)).map(|l| split_verdict(l)).collect();
    let mut out = vec![];
    for line in xmv.iter().filter(|l| is_verdict(l)) {
        let Some((spec, verdict)) = split_verdict(line) else { continue };
        if let Some(slot) = theirs.iter_mut().find(|t| t.as_ref().is_some_and(|(s, _)| *s == spec))
            && let Some((_, theirs)) = slot.take()
            && theirs != verdict
        {
            out.push(format!("{spec}: NuSMV {theirs}, xmv-rs {verdict}"));
        }
    }
    out
}

fn smv_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            smv_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "smv") {
            out.push(p);
        }
    }
}

#[derive(Default)]
struct Tally {
    files: usize,
    accepted: usize,
    both_finished: usize,
    same_verdicts: usize,
    same_output: usize,
    traced: usize,
    same_traced_output: usize,
}

#[test]
fn outputs_match_nusmv_on_its_examples() {
    let (Some(nusmv), Some(examples)) = (std::env::var_os("NUSMV").map(PathBuf::from), std::env::var_os("NUSMV_EXAMPLES").map(PathBuf::from)) else {
        eprintln!("skipping the NuSMV examples comparison: set NUSMV (the executable) and NUSMV_EXAMPLES (a folder of .smv files)");
        return;
    };
    if !nusmv.is_file() || !examples.is_dir() {
        eprintln!("skipping the NuSMV examples comparison: NUSMV is not a file or NUSMV_EXAMPLES is not a folder");
        return;
    }
    let seconds = std::env::var("XMV_EXAMPLE_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let limit = Duration::from_secs(seconds);
    let xmv = PathBuf::from(env!("CARGO_BIN_EXE_xmv-rs"));
    let mut files = vec![];
    smv_files(&examples, &mut files);
    files.sort();

    let mut t = Tally::default();
    let mut rows = vec![];
    let mut failures = vec![];
    for file in &files {
        t.files += 1;
        let name = file.strip_prefix(&examples).unwrap_or(file).display().to_string();
        let nusmv_run = |traces: bool| {
            let mut c = Command::new(&nusmv);
            if !traces {
                c.arg("-dcx");
            }
            c.arg(file);
            run(c, limit, "nusmv")
        };
        let xmv_run = |traces: bool| {
            let mut c = Command::new(&xmv);
            c.args(["check", "-q"]);
            if !traces {
                c.arg("-dcx");
            }
            c.arg(file);
            run(c, limit, "xmv")
        };
        let (theirs, ours) = (nusmv_run(false), xmv_run(false));
        let status = match (&theirs, &ours) {
            (_, Run::Done { code: 2, .. }) => "rejected by xmv-rs".to_string(),
            (Run::TimedOut, Run::TimedOut) => "both time out".to_string(),
            (Run::TimedOut, Run::Done { .. }) => {
                t.accepted += 1;
                "NuSMV times out".to_string()
            }
            (Run::Done { .. }, Run::TimedOut) => "xmv-rs times out".to_string(),
            (Run::Done { stdout: n, .. }, Run::Done { stdout: x, .. }) => {
                t.accepted += 1;
                t.both_finished += 1;
                let (n, x) = (normalise(n), normalise(x));
                let verdicts = |v: &[String]| v.iter().filter(|l| is_verdict(l)).cloned().collect::<Vec<_>>();
                let same_verdicts = verdicts(&n) == verdicts(&x);
                let same_output = n == x;
                t.same_verdicts += usize::from(same_verdicts);
                t.same_output += usize::from(same_output);
                let differ = disagreements(&n, &x);
                if !differ.is_empty() {
                    failures.push(format!("{name}:\n  {}", differ.join("\n  ")));
                }
                let mut traced = String::new();
                if let (Run::Done { stdout: nt, .. }, Run::Done { stdout: xt, .. }) = (nusmv_run(true), xmv_run(true)) {
                    t.traced += 1;
                    let same = normalise(&nt) == normalise(&xt);
                    t.same_traced_output += usize::from(same);
                    traced = format!(", traces {}", if same { "identical" } else { "differ" });
                }
                format!(
                    "verdicts {}, output {}{traced}{}",
                    if same_verdicts { "identical" } else { "differ" },
                    if same_output { "identical" } else { "differs" },
                    if differ.is_empty() { "" } else { ", VERDICT MISMATCH" }
                )
            }
        };
        eprintln!("  {name:<40} {status}");
        rows.push(format!("{name:<40} {status}"));
    }
    eprintln!("NuSMV examples ({} s limit per run):", seconds);
    for r in &rows {
        eprintln!("  {r}");
    }
    eprintln!(
        "files {}, accepted by xmv-rs {}, both finished {}, identical verdict lists {}, identical whole output (-dcx) {}, identical output with traces {} of {}",
        t.files, t.accepted, t.both_finished, t.same_verdicts, t.same_output, t.same_traced_output, t.traced
    );
    assert!(failures.is_empty(), "verdicts differ from NuSMV's:\n{}", failures.join("\n"));
}

#[test]
fn verdict_lines_are_matched_by_spec_text() {
    let n: Vec<String> = ["-- specification AG p IN a is true", "-- specification  G x  is true", "-- invariant x < 4  is false"].map(String::from).to_vec();
    let x: Vec<String> = ["-- specification AG p IN a is true", "-- invariant x < 4  is true"].map(String::from).to_vec();
    assert_eq!(disagreements(&n, &x), vec!["-- invariant x < 4: NuSMV false, xmv-rs true".to_string()]);
    assert!(disagreements(&n, &n).is_empty());
    // COMPUTE results, an instance's without a blank before `is`.
    let n: Vec<String> = ["-- the result of MIN [ a , b ]  IN sis 1", "-- the result of MAX [ a , b ]  is infinity"].map(String::from).to_vec();
    let x: Vec<String> = ["-- the result of MIN [ a , b ]  IN sis 2", "-- the result of MAX [ a , b ]  is infinity"].map(String::from).to_vec();
    assert_eq!(disagreements(&n, &x), vec!["-- the result of MIN [ a , b ]  IN s: NuSMV 1, xmv-rs 2".to_string()]);
    assert_eq!(normalise("*** banner\n\n-- specification p  is true\n"), vec!["-- specification p  is true".to_string()]);
}
