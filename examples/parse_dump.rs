//! Debugging aid: `cargo run --example parse_dump -- file.smv` prints the AST (`{:#?}`) and the
//! rendered syntax diagnostics of a file.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_dump FILE.smv");
        std::process::exit(2);
    };
    let file = match xmv_rs::source::SourceFile::read(std::path::Path::new(&path)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (program, diags) = xmv_rs::syntax::parse(&file);
    if std::env::var_os("QUIET").is_none() {
        println!("{program:#?}");
    }
    let mut sink = xmv_rs::diagnostics::Diagnostics::new();
    sink.extend(diags);
    eprint!("{}", sink.render(&file));
}
