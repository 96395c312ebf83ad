//! Control-flow models with more locations than the per-value table limit (65,536): the
//! `case` over the location variable must become a table, so that building the state space is
//! linear in the number of locations (the 100,000-location model of `tools/gen_cfg_model` took
//! minutes, O(locations²), while 65,536 locations took a quarter of a second). The assertions are
//! counts, not times: the structural check that the `case` is a table is
//! `lowering::table::tests::enumerations_wider_than_the_table_limit_get_tables`; this test runs
//! the whole pipeline on a model of that size and checks the reachable states and verdicts.

use std::fmt::Write as _;
use std::process::Command;

/// `n` locations in a ring (`l{i}` → `l{i+1}`), every third one also jumping back to `l{i/2}`.
fn ring(n: usize) -> String {
    let mut text = String::from("MODULE main\nVAR\n  loc : {");
    for i in 0..n {
        let _ = write!(text, "{}l{i}", if i == 0 { "" } else { ", " });
    }
    text.push_str("};\nASSIGN\n  init(loc) := l0;\n  next(loc) := case\n");
    for i in 0..n {
        let next = (i + 1) % n;
        if i % 3 == 2 {
            let _ = writeln!(text, "    loc = l{i} : {{l{next}, l{}}};", i / 2);
        } else {
            let _ = writeln!(text, "    loc = l{i} : l{next};");
        }
    }
    let _ = write!(text, "  esac;\nSPEC AG EF loc = l0\nSPEC AG (loc = l{} -> AX loc = l0)\nSPEC EF loc = l7\n", n - 1);
    text
}

#[test]
fn hundred_thousand_locations_build_linearly() {
    let n = 100_000;
    let dir = std::env::temp_dir().join(format!("xmv-large-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("ring.smv");
    std::fs::write(&path, ring(n)).expect("write model");
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "--engine", "explicit", "-r", "--no-trace"]).arg(&path).output().expect("run xmv-rs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("reachable states: {n} ")), "{stdout}");
    let verdicts: Vec<&str> = stdout.lines().filter(|l| l.starts_with("-- specification ")).collect();
    assert_eq!(
        verdicts,
        [
            "-- specification AG (EF loc = l0)  is true",
            &format!("-- specification AG (loc = l{} -> AX loc = l0)  is true", n - 1),
            "-- specification EF loc = l7  is true",
        ]
    );
}
