//! Spec selection for `xmv-rs check` (issue 17): `-n IDX` with NuSMV's numbering (CTL specs,
//! then COMPUTE, LTL, INVARSPEC, PSLSPEC; specs of module instances in flattening order),
//! `-P NAME` (instance specs by their qualified name, as NuSMV names them), and
//! `xmv-rs list-specs FILE`. The model is written for these tests; its numbering was checked
//! against `NuSMV -lp` (and is again when `NUSMV` is set).

use std::path::Path;
use std::process::Command;

fn xmv(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec_selection"))
        .output()
        .expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

const LISTING: &str = "  0  CTL          c.cell_live      AG (EF v) IN c
  1  CTL          -                AG (x = 3 -> AX x = 0)
  2  CTL          never3           AG x != 3
  3  Quantitative -                MIN [ x = 0 , x = 3 ]
  4  LTL          cycles            G ( F x = 0)
  5  LTL          -                 F x = 1
  6  Invar        -                (v | !v) IN c
  7  Invar        bounded          x < 4
";

#[test]
fn list_specs_numbers_like_nusmv() {
    let (status, stdout, _) = xmv(&["list-specs", "numbering.smv"]);
    assert_eq!(status, 0);
    assert_eq!(stdout, LISTING);
    let (status, _, stderr) = xmv(&["list-specs", "missing.smv"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("cannot read"), "{stderr}");
}

#[test]
fn dash_n_checks_one_spec_by_nusmvs_index() {
    let (status, stdout, _) = xmv(&["check", "-n", "1", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (0, "-- specification AG (x = 3 -> AX x = 0)  is true\n"));
    let (status, stdout, _) = xmv(&["check", "-n", "2", "--no-trace", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (1, "-- specification AG x != 3  is false\n"));
    let (status, stdout, _) = xmv(&["check", "-n", "6", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (0, "-- invariant (v | !v) IN c is true\n"));
    let (status, stdout, stderr) = xmv(&["check", "-n", "8", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(stderr.contains("error[E0602]: property index \"8\" is not valid (must be in the range [0,7])"), "{stderr}");
    let (status, stdout, _) = xmv(&["check", "-n", "4", "--no-trace", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (0, "-- specification  G ( F x = 0)  is true\n"));
    let (status, stdout, _) = xmv(&["check", "-n", "3", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (0, "-- the result of MIN [ x = 0 , x = 3 ]  is 3\n"));
}

#[test]
fn dash_p_checks_one_spec_by_name() {
    let (status, stdout, _) = xmv(&["check", "-P", "bounded", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (0, "-- invariant x < 4  is true\n"));
    let (status, stdout, _) = xmv(&["check", "-P", "c.cell_live", "numbering.smv"]);
    assert_eq!((status, stdout.as_str()), (0, "-- specification AG (EF v) IN c is true\n"));
    let (status, stdout, _) = xmv(&["check", "-P", "never3", "--format", "json", "numbering.smv"]);
    assert_eq!(status, 1);
    assert_eq!(stdout.matches("\"verdict\"").count(), 1, "{stdout}");
    let (status, _, stderr) = xmv(&["check", "-P", "cell_live", "numbering.smv"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("no property is named `cell_live` (named properties: c.cell_live, never3, cycles, bounded)"), "{stderr}");
    let (status, _, stderr) = xmv(&["check", "-n", "1", "-P", "bounded", "numbering.smv"]);
    assert_eq!(status, 2, "-n and -P exclude each other: {stderr}");
}

/// With `NUSMV` set: `NuSMV -lp` lists the same indices, types and names.
#[test]
fn numbering_matches_nusmv_when_available() {
    let Some(nusmv) = std::env::var_os("NUSMV") else {
        eprintln!("NUSMV is not set: skipped");
        return;
    };
    let out = Command::new(nusmv)
        .args(["-lp", "numbering.smv"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec_selection"))
        .output()
        .expect("NuSMV");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let mut theirs = vec![];
    for pair in lines.windows(2) {
        if let (Some((index, _)), Some(tail)) = (pair[0].split_once(" : "), pair[1].trim().strip_prefix('[')) {
            let fields: Vec<&str> = tail.trim_end_matches(']').split_whitespace().collect();
            theirs.push(format!("{} {} {}", index.trim_start_matches('0').parse::<usize>().unwrap_or(0), fields[0], fields[3]));
        }
    }
    let ours: Vec<String> = LISTING
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {}", f[0], f[1], if f[2] == "-" { "N/A" } else { f[2] })
        })
        .collect();
    assert_eq!(ours, theirs);
}
