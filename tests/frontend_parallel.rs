//! The front end's parallel parts (chunks, system resolution, lowering; `src/par.rs`) give the
//! same result as running them one after the other: the same program, symbol/label/exit ids and
//! diagnostics in the same order, on every repository `.smv` file and on a generated model with
//! many procedure modules sharing symbols, labels and exit names.

use std::path::Path;
use xmv_rs::source::SourceFile;

/// Everything the front end produces, rendered (the stage outputs implement `Debug`).
fn front_end(file: &SourceFile) -> String {
    let (program, mut diags) = xmv_rs::syntax::parse(file);
    let mut out = format!("{program:?}\n");
    if diags.iter().all(|d| !d.is_error()) {
        let (checked, sem) = xmv_rs::semantics::check(&program);
        out += &format!("{checked:?}\n");
        let errors = sem.iter().any(|d| d.is_error());
        diags.extend(sem);
        if !errors {
            let (lowered, low) = xmv_rs::lowering::lower(&checked);
            out += &format!("{lowered:?}\n");
            diags.extend(low);
        }
    }
    out + &format!("{diags:?}")
}

/// Both ways, on a thread with the front end's stack (deeply nested test inputs).
fn same(file: &SourceFile) {
    let (parallel, sequential) = std::thread::scope(|s| {
        let run = || (front_end(file), xmv_rs::par::sequentially(|| front_end(file)));
        let handle = std::thread::Builder::new().stack_size(xmv_rs::par::FRONT_END_STACK).spawn_scoped(s, run);
        handle.expect("spawn a thread").join().expect("front end panicked")
    });
    assert!(parallel == sequential, "parallel and sequential front ends differ on {}", file.name);
}

/// Procedure modules calling each other, with shared and own enumeration values, named exits,
/// global labels and specs using labels of other modules.
fn procedures(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let next = (i + 1) % n;
        s += &format!("MODULE p{i}\nVAR\n  pc : {{start, a{i}, b{i}, shared, done}};\nCALL\n  p{next} := pc = a{i};\n");
        s += &format!("EXIT\n  out{i} := pc = done;\n  common := pc = b{i};\n");
        s += &format!(
            "ASSIGN\n  init(pc) := start;\n  next(pc) := case\n    pc = start : {{a{i}, b{i}}};\n    pc = a{i} & EXITED = out{next} : shared;\n    pc = a{i} : b{i};\n    pc = shared : done;\n    TRUE : pc;\n  esac;\n"
        );
        s += &format!("DEFINE\n  lab{i} := pc = a{i};\n  both := pc in {{a{i}, shared}};\n  num{i} := 3;\n");
        s += &format!("SPEC AG (lab{i} -> EF (lab{next} | both))\n\n");
    }
    s
}

#[test]
fn parallel_front_end_equals_sequential_on_repository_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    for dir in ["specs", "tests/diagnostics", "tests/build", "tests/import"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            files.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "smv")));
        }
    }
    files.sort();
    assert!(files.len() > 50, "expected the repository's .smv files, found {}", files.len());
    for p in files {
        let bytes = std::fs::read(&p).unwrap_or_default();
        same(&SourceFile::from_bytes(p.display().to_string(), &bytes));
    }
}

#[test]
fn parallel_front_end_equals_sequential_on_many_procedures() {
    let text = procedures(120);
    let file = SourceFile::new("procedures.smv", text.clone());
    let (lowered, diags) = xmv_rs::frontend::load(&file, None);
    assert!(lowered.is_some(), "{diags:?}");
    same(&file);
    // With errors in some modules: diagnostics in the same order both ways.
    let broken = text.replace("pc = a7 : b7;", "pc = a7 : nowhere;").replace("lab30 := pc = a30;", "lab30 := pc + 1;");
    same(&SourceFile::new("broken.smv", broken));
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect("needle in text")].matches('\n').count() + 1
}

#[test]
fn syntax_errors_in_a_big_file_are_the_same_and_at_the_right_lines_in_parallel() {
    // Big enough (> 256 KiB, > 64 chunks) for the parallel scan and chunk parse.
    let text = procedures(1000);
    assert!(text.len() > 1 << 18);
    // One error in the second MODULE, one far down the file.
    let text = text.replace("    pc = a1 : b1;\n", "    pc = a1 : b1 +;\n").replace("  lab900 := pc = a900;\n", "  lab900 := pc = = a900;\n");
    let file = SourceFile::new("broken.smv", text.clone());
    same(&file);
    let render = |diags: &[xmv_rs::diagnostics::Diagnostic]| diags.iter().map(|d| d.render(&file)).collect::<String>();
    let (_, parallel) = xmv_rs::syntax::parse(&file);
    let (_, sequential) = xmv_rs::par::sequentially(|| xmv_rs::syntax::parse(&file));
    assert_eq!(render(&parallel), render(&sequential));
    assert_eq!(parallel.len(), 2, "{}", render(&parallel));
    for (d, needle) in parallel.iter().zip(["b1 +;", "= = a900"]) {
        let line = line_of(&text, needle);
        assert!(d.render(&file).contains(&format!("broken.smv:{line}:")), "expected line {line}: {}", d.render(&file));
    }
}
