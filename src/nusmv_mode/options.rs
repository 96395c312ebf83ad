//! NuSMV 2.5.4's command-line options: the table of every option its `-h` lists (plus the BMC
//! options of builds with a SAT solver), what xmv-rs does with each, and the parser that turns a
//! command line into session settings.
//!
//! Each option is one of: implemented (NuSMV's meaning), mapped (accepted; xmv-rs's explicit
//! engine gives the same answers without it, e.g. `-coi`), ignored (BDD tuning: no counterpart in
//! the explicit engine; [`bdd_setting`] is the one place a symbolic engine would read them),
//! or refused (SAT/BMC and features xmv-rs lacks: a "not supported" message on stderr and
//! NuSMV's status for a bad command line, 255). Options set the session's environment variables
//! under NuSMV's names (`counter_examples`, `ignore_spec`, …): the commands read those, as in NuSMV.

/// What xmv-rs does with an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Implemented,
    Mapped,
    Ignored,
    Refused,
}

/// One row of the table.
pub(crate) struct OptionSpec {
    pub name: &'static str,
    /// The argument's name, when the option takes one.
    pub arg: Option<&'static str>,
    pub status: Status,
    /// For implemented options: the environment variable set and its value (`$` = the argument).
    /// For the others: why.
    pub note: &'static str,
}

use crate::symbolic::trans::Partitioning;
use Status::*;

macro_rules! opt {
    ($name:literal, $arg:expr, $status:expr, $note:literal) => {
        OptionSpec { name: $name, arg: $arg, status: $status, note: $note }
    };
}

/// Every option of NuSMV 2.5.4, in its `-h` order (`-bmc`, `-bmc_length`, `-dp` and `-quiet`
/// are registered in builds with a SAT solver or hidden from `-h`).
pub(crate) const OPTIONS: &[OptionSpec] = &[
    opt!("-h", None, Implemented, "prints the usage"),
    opt!("-help", None, Implemented, "prints the usage"),
    opt!("-AG", None, Mapped, "ag_only_search=1: AG-only specs get the same verdicts from the CTL algorithm"),
    opt!("-bdd_soh", Some("heuristics"), Ignored, "BDD static ordering heuristics"),
    opt!("-coi", None, Mapped, "cone_of_influence=1: verdicts do not depend on it"),
    opt!("-cp", Some("cp_t"), Mapped, "BDD engine: threshold clustering of cp_t nodes (NuSMV's deprecated -thresh)"),
    opt!("-cpp", None, Refused, "the C preprocessor is not run; preprocess the file first"),
    opt!("-ctt", None, Implemented, "check_fsm=1: checks the totality of the transition relation"),
    opt!("-dcx", None, Implemented, "counter_examples=0: no counterexamples"),
    opt!("-df", None, Mapped, "forward_search=0: the explicit engine always explores the reachable states"),
    opt!("-disable_daggifier", None, Ignored, "affects only the model dumper"),
    opt!("-disable_sexp2bdd_caching", None, Ignored, "BDD caching"),
    opt!("-disable_syntactic_checks", None, Ignored, "xmv-rs always checks the model"),
    opt!("-dynamic", None, Mapped, "BDD engine: dynamic reordering by sifting when the live nodes double (xmv-rs check --reorder)"),
    opt!("-f", None, Mapped, "forward_search=1: the default"),
    opt!("-flt", None, Ignored, "reachable states of the LTL tableau"),
    opt!("-i", Some("iv_file"), Ignored, "BDD variable order input file"),
    opt!("-ic", None, Implemented, "ignore_compute=1"),
    opt!("-ii", None, Implemented, "ignore_invar=1"),
    opt!("-ils", None, Implemented, "ignore_ltlspec=1"),
    opt!("-int", None, Implemented, "interactive mode: commands from stdin"),
    opt!("-ips", None, Implemented, "ignore_pslspec=1"),
    opt!("-is", None, Implemented, "ignore_spec=1"),
    opt!("-iwl95preorder", None, Ignored, "BDD image preordering"),
    opt!("-iwls95", Some("cp_t"), Mapped, "BDD engine: IWLS95 clusters of cp_t nodes, ordered by benefit per direction"),
    opt!("-keep_single_value_vars", None, Ignored, "no effect on verdicts or traces of xmv-rs"),
    opt!("-load", Some("sc_file"), Implemented, "runs the commands of sc_file (as -source)"),
    opt!("-lp", None, Implemented, "lists the properties and exits"),
    opt!("-m", Some("method"), Mapped, "reorder_method=$: one of NuSMV's methods; -dynamic's reorderings sift whatever the method"),
    opt!("-mono", None, Mapped, "BDD engine: one cluster (monolithic transition relation)"),
    opt!("-n", Some("idx"), Implemented, "prop_no=$: checks only property idx"),
    opt!("-noaffinity", None, Ignored, "BDD affinity clustering"),
    opt!("-o", Some("ov_file"), Ignored, "BDD variable order output file (not written)"),
    opt!("-obm", Some("bn_file"), Refused, "xmv-rs has no boolean model to print"),
    opt!("-ofm", Some("fn_file"), Implemented, "output_flatten_model_file=$: writes the flattened model to fn_file (as NuSMV with -disable_daggifier)"),
    opt!("-ojeba", Some("str"), Ignored, "BDD language-emptiness algorithm for LTL"),
    opt!("-old", None, Ignored, "backward compatibility with NuSMV 2.4 syntax details"),
    opt!("-old_div_op", None, Implemented, "use_ansi_c_div_op=0: integer / rounds down and mod is non-negative for a positive divisor, as before NuSMV 2.4"),
    opt!("-pre", Some("pp_list"), Refused, "preprocessors are not run; preprocess the file first"),
    opt!("-r", None, Implemented, "print_reachable=1: prints the number of reachable states"),
    opt!("-reorder", None, Ignored, "BDD reordering before exit: it changes only the order -o writes, which xmv-rs does not write"),
    opt!("-rin", Some("on|off"), Refused, "RBC inlining belongs to SAT-based model checking"),
    opt!("-s", None, Implemented, "no initialization file (xmv-rs reads none)"),
    opt!("-sat_solver", Some("str"), Refused, "SAT-based model checking is not supported"),
    opt!("-sin", Some("on|off"), Ignored, "expression inlining: no effect on verdicts"),
    opt!("-source", Some("sc_file"), Implemented, "runs the commands of sc_file"),
    opt!("-t", Some("tv_file"), Ignored, "BDD clustering order file"),
    opt!("-thresh", Some("cp_t"), Mapped, "BDD engine: affinity clustering up to cp_t nodes (NuSMV's default method)"),
    opt!("-v", Some("vl"), Implemented, "verbose_level=$ (set; xmv-rs prints no extra messages yet)"),
    opt!("-bmc", None, Refused, "SAT-based bounded model checking is not supported"),
    opt!("-bmc_length", Some("k"), Refused, "SAT-based bounded model checking is not supported"),
    opt!("-dp", None, Refused, "unsupported in NuSMV 2.5.4 too"),
    opt!("-quiet", None, Implemented, "no banner"),
];

/// The option named `name`.
pub(crate) fn lookup(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// A BDD tuning option as the symbolic engine would receive it: the single place where the
/// ignored options of [`OPTIONS`] are collected. The explicit engine reads none of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BddSetting {
    pub option: &'static str,
    pub value: Option<String>,
}

/// Records an ignored option (see [`BddSetting`]).
pub(crate) fn bdd_setting(option: &'static OptionSpec, value: Option<String>) -> BddSetting {
    BddSetting { option: option.name, value }
}

/// What a command line asks for.
#[derive(Clone, Debug, Default)]
pub(crate) struct CommandLine {
    /// Environment variables to set, in order (NuSMV's names).
    pub env: Vec<(&'static str, String)>,
    pub input_file: Option<String>,
    pub script: Option<String>,
    pub interactive: bool,
    pub help: bool,
    pub quiet: bool,
    pub list_properties: bool,
    pub bdd: Vec<BddSetting>,
    /// `-thresh`, `-cp`, `-iwls95`, `-mono`: the BDD engine's clustering (`symbolic::trans`).
    pub partitioning: Option<Partitioning>,
    /// `-dynamic`: the BDD engine's dynamic reordering (`symbolic::reorder`).
    pub dynamic_reordering: bool,
}

/// NuSMV 2.5.4's reordering methods (`-m`; its `REORDER_METHOD` option). xmv-rs sifts for
/// every one (NuSMV's default is `sift`); like NuSMV, `-m` alone does not turn reordering on.
pub(crate) const REORDER_METHODS: &[&str] = &[
    "random",
    "random_pivot",
    "sift",
    "group_sift",
    "sift_converge",
    "symmetry_sift",
    "symmetry_sift_converge",
    "window2",
    "window3",
    "window4",
    "window2_converge",
    "window3_converge",
    "window4_converge",
    "group_sift_converge",
    "annealing",
    "genetic",
    "exact",
    "linear",
    "linear_converge",
    "same",
];

/// Why a command line is refused: the message for stderr (the status is 255, NuSMV's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal(pub String);

/// Parses NuSMV's command line (without the program name).
pub(crate) fn parse(args: &[String]) -> Result<CommandLine, Refusal> {
    let mut cl = CommandLine::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if !a.starts_with('-') || a == "-" {
            if cl.input_file.is_some() {
                return Err(Refusal(format!("Input file specified twice: \"{a}\"")));
            }
            cl.input_file = Some(a.clone());
            continue;
        }
        let Some(spec) = lookup(a) else {
            return Err(Refusal(format!("The command line option \"{a}\" is unknown")));
        };
        let value = match spec.arg {
            Some(_) => match args.get(i) {
                Some(v) => {
                    i += 1;
                    Some(v.clone())
                }
                None => return Err(Refusal(format!("The command line option \"{a}\" requires an argument"))),
            },
            None => None,
        };
        match spec.status {
            Status::Refused => return Err(Refusal(format!("xmv-rs: the NuSMV option \"{a}\" is not supported: {}", spec.note))),
            Status::Ignored => cl.bdd.push(bdd_setting(spec, value)),
            Status::Mapped | Status::Implemented => apply(&mut cl, spec.name, value)?,
        }
    }
    if cl.script.is_some() && cl.interactive {
        // NuSMV runs the script, then reads commands from stdin: the same as -source alone.
        cl.interactive = false;
    }
    Ok(cl)
}

fn apply(cl: &mut CommandLine, name: &str, value: Option<String>) -> Result<(), Refusal> {
    let value = value.unwrap_or_default();
    let env = &mut cl.env;
    match name {
        "-h" | "-help" => cl.help = true,
        "-AG" => env.push(("ag_only_search", "1".into())),
        "-coi" => env.push(("cone_of_influence", "1".into())),
        "-ctt" => env.push(("check_fsm", "1".into())),
        "-dcx" => env.push(("counter_examples", "0".into())),
        "-df" => env.push(("forward_search", "0".into())),
        "-f" => env.push(("forward_search", "1".into())),
        "-ic" => env.push(("ignore_compute", "1".into())),
        "-ii" => env.push(("ignore_invar", "1".into())),
        "-ils" => env.push(("ignore_ltlspec", "1".into())),
        "-ips" => env.push(("ignore_pslspec", "1".into())),
        "-is" => env.push(("ignore_spec", "1".into())),
        "-int" => cl.interactive = true,
        "-load" | "-source" => {
            if cl.script.is_some() {
                return Err(Refusal("Options -source and -load are incompatible".into()));
            }
            cl.script = Some(value);
        }
        "-lp" => cl.list_properties = true,
        "-n" => match value.parse::<i64>() {
            Ok(n) if n >= 0 => env.push(("prop_no", n.to_string())),
            _ => return Err(Refusal(format!("The command line option \"-n\" needs a property index, not \"{value}\""))),
        },
        "-r" => env.push(("print_reachable", "1".into())),
        "-ofm" => env.push(("output_flatten_model_file", value)),
        "-old_div_op" => env.push(("use_ansi_c_div_op", "0".into())),
        "-s" => {}
        "-v" => match value.parse::<u32>() {
            Ok(n) => env.push(("verbose_level", n.to_string())),
            Err(_) => return Err(Refusal(format!("The command line option \"-v\" needs a verbose level, not \"{value}\""))),
        },
        "-quiet" => cl.quiet = true,
        "-mono" => cl.partitioning = Some(Partitioning::Monolithic),
        "-dynamic" => {
            cl.dynamic_reordering = true;
            env.push(("dynamic_reorder", "1".into()));
        }
        "-m" => match REORDER_METHODS.contains(&value.as_str()) {
            true => env.push(("reorder_method", value)),
            false => return Err(Refusal(format!("Cannot set value \"{value}\" to option \"-m\""))),
        },
        "-thresh" | "-cp" | "-iwls95" => {
            let Ok(t) = value.parse::<usize>() else {
                return Err(Refusal(format!("The command line option \"{name}\" needs a cluster size in BDD nodes, not \"{value}\"")));
            };
            cl.partitioning = Some(match (name, cl.partitioning) {
                ("-iwls95", _) => Partitioning::Iwls95(t),
                (_, Some(Partitioning::Iwls95(_) | Partitioning::Monolithic)) => return Ok(()),
                _ => Partitioning::Threshold(t),
            });
        }
        _ => {}
    }
    Ok(())
}

/// `-h`: the usage, one line per option with what xmv-rs does with it.
pub(crate) fn usage(program: &str) -> String {
    let mut out = format!("Usage:  {program} [-h | -help] [options]* [input_file]\n");
    for o in OPTIONS {
        let arg = o.arg.map(|a| format!(" {a}")).unwrap_or_default();
        let status = match o.status {
            Implemented => "",
            Mapped => "accepted: ",
            Ignored => "ignored: ",
            Refused => "not supported: ",
        };
        out.push_str(&format!("   {}{arg}\n      {status}{}\n", o.name, o.note));
    }
    out.push_str("   input-file\n      the file both the model and the spec were read from\n");
    out
}
