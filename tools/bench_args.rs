//! Command-line options of the benchmark examples (`--name VALUE` among file arguments),
//! without a parser dependency. Included with `#[path]`, since examples are separate crates.

/// Removes `flag VALUE` from `args` and returns the value parsed, or `default` if the flag is
/// absent or its value does not parse.
pub fn take_option<T: std::str::FromStr>(args: &mut Vec<String>, flag: &str, default: T) -> T {
    let Some(i) = args.iter().position(|a| a == flag) else { return default };
    let value = args.get(i + 1).and_then(|s| s.parse().ok());
    args.drain(i..(i + 2).min(args.len()));
    value.unwrap_or(default)
}
