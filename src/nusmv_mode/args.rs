//! A NuSMV command's words as C's `getopt` reads them: flags, options with a value, and the
//! remaining (positional) words. Read by the command dispatch (`super::commands`) and by the
//! session's commands that take options.

/// A command's words after `getopt`: flags, options with values, and the remaining words.
#[derive(Clone, Debug, Default)]
pub(crate) struct Args {
    flags: Vec<char>,
    values: Vec<(char, String)>,
    pub positional: Vec<String>,
}

impl Args {
    /// The words of a command that takes no options, all positional.
    pub(crate) fn positional_only(words: &[String]) -> Args {
        Args { positional: words.to_vec(), ..Args::default() }
    }
    pub(crate) fn flag(&self, c: char) -> bool {
        self.flags.contains(&c)
    }
    pub(crate) fn value(&self, c: char) -> Option<&str> {
        self.values.iter().rev().find(|(k, _)| *k == c).map(|(_, v)| v.as_str())
    }
}

/// `getopt(words, spec)`: `spec` lists the option letters, `:` after those that take a value.
pub(crate) fn getopt(words: &[String], spec: &str) -> Result<Args, String> {
    let mut args = Args::default();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if w == "--" {
            args.positional.extend(words[i..].iter().cloned());
            break;
        }
        let Some(letters) = w.strip_prefix('-').filter(|l| !l.is_empty()) else {
            args.positional.push(w.clone());
            continue;
        };
        for (at, c) in letters.char_indices() {
            let Some(pos) = spec.find(c) else { return Err(format!("unknown option -- {c}")) };
            if spec[pos + 1..].starts_with(':') {
                let rest = &letters[at + c.len_utf8()..];
                let value = if !rest.is_empty() {
                    rest.to_string()
                } else if let Some(v) = words.get(i) {
                    i += 1;
                    v.clone()
                } else {
                    return Err(format!("option requires an argument -- {c}"));
                };
                args.values.push((c, value));
                break;
            }
            args.flags.push(c);
        }
    }
    Ok(args)
}
