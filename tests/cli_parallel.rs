//! The command line gives the same output for every `-j` on a model with many procedure modules
//! and specs (front end, RKS build and lane batches all split over threads), also when the file
//! has syntax errors in several chunks; `XMV_CPU_TRACE` adds the per-stage CPU lines on stderr
//! and changes nothing else.

use std::process::Command;

fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xmv-rs"));
    cmd.args(args).env_remove("XMV_CPU_TRACE").env_remove("XMV_FRONT_THREADS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("xmv-cli-parallel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write model");
    path.display().to_string()
}

/// `n` procedure modules in call cycles, each with def/use labels and a def/use spec per
/// module (all of one shape, so they are lane-batched).
fn chain(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        // Cycles of 50 modules: each spec's procedures are a few, the file is big.
        let next = if (i + 1) % 50 == 0 { i + 1 - 50 } else { (i + 1) % n };
        s += &format!("MODULE p{i}\nVAR\n  pc : {{start, c{i}, u{i}, done}};\nCALL\n  p{next} := pc = c{i};\nEXIT\n  done := pc = done;\n");
        s += &format!(
            "ASSIGN\n  init(pc) := start;\n  next(pc) := case\n    pc = start : {{c{i}, u{i}}};\n    pc = c{i} : u{i};\n    pc = u{i} : done;\n    TRUE : pc;\n  esac;\n"
        );
        let used = match i % 3 {
            0 => format!("pc = u{i}"),
            1 => format!("pc = c{i}"),                 // a call location: never a configuration
            _ => "pc = start & pc = done".to_string(), // never: the spec is false
        };
        s += &format!("DEFINE\n  def__v{i} := pc = start;\n  use__v{i} := {used};\n");
        s += &format!("SPEC AG (def__v{i} -> EF use__v{i})\n\n");
    }
    s
}

#[test]
fn every_thread_count_gives_the_same_output() {
    let text = chain(1000);
    assert!(text.len() > 1 << 18, "big enough for the parallel scan");
    let path = write("chain.smv", &text);
    let one = run(&["check", "--no-trace", "-j", "1", &path], &[]);
    assert_eq!(one.0, 1, "{}", one.2);
    // Calls are transparent: `pc = c_i` (a call location) is never a configuration.
    assert_eq!(one.1.matches("is true").count(), 334);
    assert_eq!(one.1.matches("is false").count(), 666);
    for j in ["2", "3"] {
        assert_eq!(run(&["check", "--no-trace", "-j", j, &path], &[]), one, "-j {j}");
    }
    let traces = run(&["check", "-j", "1", &path], &[]);
    assert_eq!(run(&["check", "-j", "2", &path], &[]), traces, "with traces");
}

#[test]
fn syntax_errors_in_several_chunks_are_reported_alike_for_every_thread_count() {
    let text = chain(1000).replace("    pc = c1 : u1;\n", "    pc = c1 : u1 +;\n").replace("  def__v900 := pc = start;\n", "  def__v900 := pc = = start;\n");
    let path = write("broken.smv", &text);
    let one = run(&["check", "-j", "1", &path], &[]);
    assert_eq!(one.0, 2);
    for needle in ["u1 +;", "= = start"] {
        let line = text[..text.find(needle).expect("edit")].matches('\n').count() + 1;
        assert!(one.2.contains(&format!("broken.smv:{line}:")), "no error at line {line}: {}", one.2);
    }
    assert_eq!(run(&["check", "-j", "2", &path], &[]), one);
}

#[test]
fn the_cpu_trace_adds_stage_lines_on_stderr_only() {
    let path = write("trace.smv", &chain(40));
    let plain = run(&["check", "--no-trace", "-j", "2", &path], &[]);
    let traced = run(&["check", "--no-trace", "-j", "2", &path], &[("XMV_CPU_TRACE", "1")]);
    assert_eq!((traced.0, &traced.1), (plain.0, &plain.1));
    let marks: Vec<&str> = traced.2.lines().filter(|l| l.starts_with("-- cpu: ")).map(|l| l[8..].split("  ").next().unwrap_or("").trim()).collect();
    for stage in ["file read", "parsed", "checked", "lowered", "state space built", "batches checked", "reported"] {
        assert!(marks.contains(&stage), "no `{stage}` line in {marks:?}");
    }
    let others: String = traced.2.lines().filter(|l| !l.starts_with("-- cpu: ")).map(|l| format!("{l}\n")).collect();
    assert_eq!(others, plain.2);
}

/// The procedure modules are explored in parallel rounds; a limit reached, or an evaluation
/// error in a late module, is reported exactly as by the one-thread run (same message, count
/// and location), which the parallel run falls back to.
#[test]
fn exploration_limits_and_errors_are_reported_alike_for_every_thread_count() {
    let path = write("limited.smv", &chain(1000));
    // A fixed budget in both runs: the default is derived from the memory available at the time.
    for limit in [["--max-states", "3000", "--max-memory", "4G"], ["--max-memory", "100000", "--max-states", "1000000"]] {
        let one = run(&["check", "--no-trace", "-j", "1", limit[0], limit[1], limit[2], limit[3], &path], &[]);
        assert_eq!(one.0, 2, "{limit:?}: {}", one.2);
        assert_eq!(run(&["check", "--no-trace", "-j", "2", limit[0], limit[1], limit[2], limit[3], &path], &[]), one, "{limit:?}");
    }
    // Module p900 has no `case` branch for `u900`: reaching it is an error.
    let text = chain(1000).replace("    pc = u900 : done;\n    TRUE : pc;\n", "    pc = start : u900;\n");
    let path = write("late_error.smv", &text);
    let one = run(&["check", "--no-trace", "-j", "1", &path], &[]);
    assert_eq!(one.0, 2, "{}", one.2);
    assert!(one.2.contains("u900"), "{}", one.2);
    assert_eq!(run(&["check", "--no-trace", "-j", "2", &path], &[]), one);
}
