//! Runs the front end on a file and prints its diagnostics and a summary of the lowered program:
//! `cargo run --example frontend_dump -- file.smv`.

use xmv_rs::source::SourceFile;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: frontend_dump FILE.smv");
        std::process::exit(2);
    };
    let file = match SourceFile::read(std::path::Path::new(&path)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (lowered, diags) = xmv_rs::frontend::load(&file, None);
    eprint!("{}", diags.render(&file));
    let Some(p) = lowered else { std::process::exit(2) };
    for (i, s) in p.systems.iter().enumerate() {
        println!("system {i} `{}` procedure={} vars={}", s.name, s.is_procedure, s.vars.len());
        for (v, var) in s.vars.iter().enumerate() {
            println!("  var {} : {:?}", var.name, var.domain);
            for (kind, a) in [("init", &s.init_assign[v]), ("next", &s.next_assign[v]), ("invar", &s.invar_assign[v])] {
                if let Some(e) = a {
                    println!("    {kind} = {e:?}");
                }
            }
        }
        for d in &s.defines {
            println!("  define {} = {:?}", d.name, d.expr);
        }
    }
    for s in &p.specs {
        println!("spec [{}] {:?}: {}", s.system, s.kind, s.text);
        println!("  {:?}", s.formula);
    }
}
