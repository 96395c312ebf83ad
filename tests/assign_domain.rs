//! NuSMV 2.5.4 rejects a model whose `init()`/`next()` assignment can give a value outside the
//! variable's type in any state, reachable or not ("cannot assign value 6 to variable c"); xmv-rs
//! does the same (E0510, or E0209 for a constant). On random models (small ranges and enums,
//! inputs, guarded `case` branches, sets, INVAR), xmv-rs rejects exactly the models NuSMV rejects
//! when `NUSMV` names its binary; skipped otherwise. The diagnostics themselves are golden files
//! (`tests/build/assign-domain-*.smv`).

use std::process::Command;

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.next((hi - lo + 1) as u64) as i64
    }
}

fn model(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = r.int(1, 3) as usize;
    // (name, Some((lo, hi)) for a range, None for the enum {e0, e1, e2})
    let vars: Vec<(String, Option<(i64, i64)>)> = (0..n)
        .map(|k| {
            let lo = r.int(-2, 1);
            (format!("v{k}"), (r.next(10) < 7).then(|| (lo, lo + r.int(1, 6))))
        })
        .collect();
    let input = r.next(10) < 4;
    let mut text = String::from("MODULE main\nVAR\n");
    for (name, range) in &vars {
        match range {
            Some((lo, hi)) => text += &format!("  {name} : {lo}..{hi};\n"),
            None => text += &format!("  {name} : {{e0, e1, e2}};\n"),
        }
    }
    if input {
        text += &format!("IVAR i : 0..{};\n", r.int(3, 8));
    }
    let ints: Vec<&(String, Option<(i64, i64)>)> = vars.iter().filter(|v| v.1.is_some()).collect();
    let guard = |r: &mut Rng| match ints.get(r.next(ints.len() as u64 + 1) as usize) {
        Some((name, Some((lo, hi)))) => format!("{name} {} {}", ["<", ">=", "=", "!="][r.next(4) as usize], r.int(lo - 1, hi + 1)),
        _ if input => format!("i < {}", r.int(0, 8)),
        _ => "TRUE".to_string(),
    };
    text += "ASSIGN\n";
    for (name, range) in &vars {
        let mut branches = vec![];
        for _ in 0..r.int(1, 3) {
            let g = guard(&mut r);
            let value = match range {
                Some(_) => {
                    let base = match (ints.get(r.next(ints.len() as u64) as usize), input && r.next(3) == 0) {
                        (_, true) => "i".to_string(),
                        (Some((other, _)), false) => other.clone(),
                        (None, false) => "0".to_string(),
                    };
                    let e = format!("{base} + {}", r.int(-2, 3));
                    if r.next(5) == 0 { format!("{{{base}, {e}}}") } else { e }
                }
                None => format!("e{}", r.next(3)),
            };
            branches.push(format!("    {g} : {value};\n"));
        }
        let init = range.map_or("e0".to_string(), |(lo, _)| lo.to_string());
        text += &format!("  init({name}) := {init};\n  next({name}) := case\n{}    TRUE : {name};\n  esac;\n", branches.concat());
    }
    if r.next(10) < 4 {
        text += &format!("INVAR {}\n", guard(&mut r));
    }
    text += &format!("SPEC AG ({})\n", guard(&mut r));
    text
}

#[test]
fn rejects_exactly_what_nusmv_rejects() {
    let Ok(nusmv) = std::env::var("NUSMV") else {
        eprintln!("NUSMV unset: skipped");
        return;
    };
    let dir = std::env::temp_dir().join(format!("xmv-assign-domain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (mut rejected, mut total) = (0, 0);
    for seed in 0..120 {
        let path = dir.join(format!("m{seed}.smv"));
        let text = model(seed);
        std::fs::write(&path, &text).expect("write model");
        let theirs = Command::new(&nusmv).arg("-dcx").arg(&path).output().expect("run NuSMV");
        let theirs = String::from_utf8_lossy(&theirs.stderr).contains("cannot assign value");
        let ours = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "--no-trace"]).arg(&path).output().expect("run xmv-rs");
        let stderr = String::from_utf8_lossy(&ours.stderr);
        let ours_rejects = stderr.contains("error[E0510]") || stderr.contains("error[E0209]");
        assert_eq!(ours_rejects, theirs, "seed {seed}: NuSMV rejects: {theirs}\n{text}\n{stderr}");
        if ours_rejects {
            assert_eq!(ours.status.code(), Some(2), "seed {seed}");
        }
        rejected += usize::from(theirs);
        total += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The generator must exercise both outcomes.
    assert!(rejected > 10 && total - rejected > 10, "{rejected} of {total} rejected");
}

/// The value named when several are out of range: NuSMV 2.5.4's (recorded with the oracle on
/// these models, written for this test), the first out-of-range leaf of its ADD
/// (`symbolic::assign_domain::nusmv_first_point`). For sets NuSMV names the greatest element at
/// that point on these models (not on all: README).
#[test]
fn names_the_value_nusmv_names() {
    // E0510, or E0209 for a constant right-hand side.
    let cases = [
        ("VAR x : 2..3; y : 0..5;\nASSIGN next(x) := y;", "5"),
        ("VAR x : 2..3; y : 0..7;\nASSIGN next(x) := y;", "7"),
        ("VAR x : 2..3; y : 0..6;\nASSIGN next(x) := y;", "5"),
        ("VAR x : 2..3; y : 0..3;\nASSIGN next(x) := y;", "1"),
        ("VAR x : 2..3; y : 0..5;\nASSIGN next(x) := y + 1;", "4"),
        ("VAR x : 2..3; y : 0..5;\nASSIGN next(x) := case y < 2 : 7; TRUE : 9; esac;", "9"),
        ("VAR x : 2..3; y : 0..5;\nASSIGN next(x) := case y > 2 : 7; TRUE : 9; esac;", "7"),
        ("VAR x : 2..3; y : 0..5;\nASSIGN init(x) := y;", "5"),
        ("VAR x : 2..3; y : {a, b, c};\nASSIGN next(x) := case y = a : 0; y = b : 1; TRUE : 5; esac;", "1"),
        ("VAR x : 2..3; y : 0..5; z : boolean;\nASSIGN next(x) := case z : y; TRUE : 4; esac;", "4"),
        ("VAR x : 0..3; y : 0..5; z : 0..2;\nASSIGN next(x) := y + z;", "4"),
        ("VAR z : 0..2; x : 0..3; y : 0..5;\nASSIGN next(x) := y - z;", "4"),
        ("IVAR i : 0..9;\nVAR x : 0..3;\nASSIGN next(x) := i;", "7"),
        ("VAR x : 1..4; y : 0..5;\nASSIGN next(x) := next(y) + y;", "6"),
        ("VAR x : 1..4; y : 0..5;\nASSIGN next(y) := 2; next(x) := next(y) * y;", "9"),
        ("VAR x : 2..5; y : 0..11;\nASSIGN next(x) := y;", "7"),
        ("VAR x : 2..5; y : 0..11;\nASSIGN next(x) := {y + 1, y};", "8"),
        ("VAR x : 2..5; y : 0..11;\nASSIGN next(x) := {y + 2, y, y + 1};", "9"),
        ("VAR x : 2..5; y : 0..11;\nASSIGN next(x) := {1, 0};", "1"),
    ];
    let dir = std::env::temp_dir().join(format!("xmv-assign-named-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, (body, value)) in cases.iter().enumerate() {
        let path = dir.join(format!("n{i}.smv"));
        std::fs::write(&path, format!("MODULE main\n{body}\n")).expect("write model");
        let ours = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg(&path).output().expect("run xmv-rs");
        let stderr = String::from_utf8_lossy(&ours.stderr);
        assert!(stderr.contains(&format!("]: cannot assign value {value} to variable `x`")), "{body}: NuSMV names {value}\n{stderr}");
        if let Ok(nusmv) = std::env::var("NUSMV") {
            let theirs = Command::new(&nusmv).arg(&path).output().expect("run NuSMV");
            let theirs = String::from_utf8_lossy(&theirs.stderr);
            assert!(theirs.contains(&format!("cannot assign value {value} to variable x\n")), "{body}: NuSMV now says\n{theirs}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
