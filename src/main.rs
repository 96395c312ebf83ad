//! The `xmv-rs` command line.

fn main() {
    std::process::exit(2);
}
