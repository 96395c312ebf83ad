//! NuSMV's command language as `-source` files and `-int` read it: splitting a line into
//! commands and words (`#` comments, `;` separators, double quotes), each command's options
//! (`super::args`), and the dispatch of a command to the [`Session`].
//!
//! Commands: `read_model [-i FILE]`, `flatten_hierarchy`, `encode_variables`,
//! `build_flat_model`, `build_boolean_model`, `build_model`, `go`, `check_ctlspec [-p F] [-n N]`,
//! `check_invar [-p F] [-n N]`, `check_ltlspec [-n N]`, `check_pslspec`, `compute`,
//! `check_property [-c|-i|-l|-s|-q] [-n N]`, `show_property`, `check_fsm`,
//! `compute_reachable`, `print_reachable_states [-v]`, `show_traces [-v] [-a] [N]`,
//! `pick_state [-v] [-r] [-c C]`, `simulate [-p | -v] [-r] [-c C | -t C] [-k N]`,
//! `write_flat_model [-o FILE]`, `set [NAME [VALUE]]`, `unset NAME`, `reset`, `echo WORDS`, `source FILE`, `help`, `quit`.

use super::args::{Args, getopt};
use super::session::{Session, Status, Which};
use crate::ir::SpecKind;

/// Splits a line into commands, each a list of words.
pub(crate) fn split_line(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![];
    let mut words: Vec<String> = vec![];
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                in_word = true;
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    word.push(d);
                }
            }
            '#' if !in_word => break,
            ';' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if !words.is_empty() {
        commands.push(words);
    }
    commands
}

/// The commands [`run`] knows, for `help`.
pub(crate) const COMMANDS: &[&str] = &[
    "build_boolean_model",
    "build_flat_model",
    "build_model",
    "check_compute",
    "check_ctlspec",
    "check_fsm",
    "check_invar",
    "check_ltlspec",
    "check_property",
    "check_pslspec",
    "compute",
    "compute_reachable",
    "echo",
    "encode_variables",
    "flatten_hierarchy",
    "go",
    "help",
    "pick_state",
    "print_reachable_states",
    "quit",
    "read_model",
    "reset",
    "set",
    "show_property",
    "show_traces",
    "simulate",
    "source",
    "unset",
    "write_flat_model",
];

/// `write_flat_model -h`, as NuSMV 2.5.4 prints it.
const WRITE_FLAT_MODEL_USAGE: &str = "usage: write_flat_model [-h] [-A] [-m] [-o filename]\n  -h \t\tPrints the command usage.\n  -o filename\tWrites output to \"filename\"\n  -A Write the model using variables and defines rewriting to make it anonimized.\n  -m Disable printing of key map when writing anonimized model\n";

/// Runs one command; `source` is handled by the caller ([`super::shell`]) and never reaches here.
pub(crate) fn run(session: &mut Session, words: &[String]) -> Status {
    let Some((name, rest)) = words.split_first() else { return 0 };
    let opts = |spec: &str| getopt(rest, spec);
    let parsed = match name.as_str() {
        "read_model" => opts("hi:"),
        "check_ctlspec" | "check_invar" | "check_ltlspec" | "check_pslspec" | "compute" | "check_compute" => opts("hmo:n:p:P:"),
        "check_property" => opts("hmo:n:p:P:cilsq"),
        "print_reachable_states" => opts("hvdf"),
        "show_traces" => opts("hvat:dm:o:p:"),
        "show_property" => opts("hcilsqun:P:m:o:F:"),
        "pick_state" => opts("hvriac:s:"),
        "simulate" => opts("hpvriac:t:k:"),
        "write_flat_model" => opts("hAmo:"),
        _ => Ok(Args::positional_only(rest)),
    };
    let args = match parsed {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(session.err, "{name}: {e}");
            return 1;
        }
    };
    let index = match args.value('n').map(str::parse::<usize>) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            let _ = writeln!(session.err, "Error: \"{}\" is not a valid value (must be a non-negative integer).", args.value('n').unwrap_or_default());
            return 1;
        }
    };
    if args.value('P').is_some() {
        let _ = writeln!(session.err, "{name}: -P is an option of NuSMV 2.6; use -n with the index `show_property` gives");
        return 1;
    }
    let formula = args.value('p');
    match name.as_str() {
        "read_model" => session.read_model(args.value('i')),
        "flatten_hierarchy" => session.flatten_hierarchy(),
        "encode_variables" => session.encode_variables(),
        "build_flat_model" | "build_boolean_model" => 0,
        "build_model" => session.build_model(),
        "go" => session.go(),
        "check_ctlspec" => session.check(Which::Kind(SpecKind::Ctl), index, formula),
        "check_invar" => session.check(Which::Kind(SpecKind::Invar), index, formula),
        "check_ltlspec" => session.check(Which::Kind(SpecKind::Ltl), index, formula),
        "check_pslspec" => session.check(Which::Kind(SpecKind::Psl), index, formula),
        "compute" => {
            // NuSMV warns after the command has run.
            let status = session.check(Which::Kind(SpecKind::Compute), index, formula);
            session.warn("Warning: command 'compute' is deprecated, use 'check_compute' instead.");
            status
        }
        "check_compute" => session.check(Which::Kind(SpecKind::Compute), index, formula),
        "check_property" => {
            let kind = [('c', SpecKind::Ctl), ('i', SpecKind::Invar), ('l', SpecKind::Ltl), ('s', SpecKind::Psl), ('q', SpecKind::Compute)]
                .into_iter()
                .find(|(c, _)| args.flag(*c));
            session.check(kind.map_or(Which::Any, |(_, k)| Which::Kind(k)), index, formula)
        }
        "show_property" => session.show_property(),
        "check_fsm" => session.check_fsm(),
        "compute_reachable" => session.compute_reachable(),
        "print_reachable_states" => session.print_reachable(args.flag('v'), true),
        "show_traces" => session.show_traces(&args),
        "pick_state" => session.pick_state(&args),
        "simulate" => session.simulate(&args),
        "write_flat_model" if args.flag('h') || !args.positional.is_empty() => {
            let _ = write!(session.err, "{WRITE_FLAT_MODEL_USAGE}");
            1
        }
        "write_flat_model" => session.write_flat_model(args.value('o'), args.flag('A')),
        "set" => set(session, &args.positional),
        "unset" => {
            for name in &args.positional {
                session.unset(name);
            }
            0
        }
        "reset" => session.reset(),
        "echo" => {
            let mut line = String::new();
            for w in &args.positional {
                line.push_str(w);
                line.push(' ');
            }
            let _ = writeln!(session.out, "{line}");
            0
        }
        "help" => {
            for c in COMMANDS {
                let _ = writeln!(session.out, "{c}");
            }
            0
        }
        "quit" => {
            session.quit = true;
            0
        }
        _ => {
            let _ = writeln!(session.err, "unknown command '{name}'");
            1
        }
    }
}

/// `set` (lists the variables), `set NAME` (to the empty value), `set NAME VALUE`.
fn set(session: &mut Session, words: &[String]) -> Status {
    match words {
        [] => {
            let lines: Vec<String> = session.variables().map(|(k, v)| format!("{k:<30}{v}")).collect();
            for l in lines {
                let _ = writeln!(session.out, "{l}");
            }
            0
        }
        [name] => {
            session.set(name, "");
            0
        }
        [name, value @ ..] => {
            session.set(name, &value.join(" "));
            0
        }
    }
}
