//! Front-end throughput: parses each given file repeatedly and prints a table of MB/s.
//! Run through `tools/frontend-throughput.sh` (release build, generated large model).
//!
//! usage: frontend_throughput [--min-seconds S] FILE.smv...

use std::time::{Duration, Instant};
use xmv_rs::source::SourceFile;

/// The front end being measured (parsing today; later stages are added here).
#[path = "../tools/bench_args.rs"]
mod bench_args;
use bench_args::take_option;

fn front_end(file: &SourceFile) -> usize {
    let (program, diags) = xmv_rs::syntax::parse(file);
    program.modules.len() + diags.len()
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let min_seconds = take_option(&mut args, "--min-seconds", 2.0);
    println!("| file | size (KB) | runs | ms/run | MB/s |");
    println!("|---|---:|---:|---:|---:|");
    for path in &args {
        let file = match SourceFile::read(std::path::Path::new(path)) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let bytes = file.text.len() as f64;
        let mut runs = 0u32;
        let mut sink = 0usize;
        let start = Instant::now();
        while runs == 0 || start.elapsed() < Duration::from_secs_f64(min_seconds) {
            sink = sink.wrapping_add(front_end(&file));
            runs += 1;
        }
        let per_run = start.elapsed().as_secs_f64() / f64::from(runs);
        let name = std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!("| {name} | {:.0} | {runs} | {:.2} | {:.2} |", bytes / 1024.0, per_run * 1e3, bytes / per_run / 1e6);
        std::hint::black_box(sink);
    }
}
