//! The native command line: `allreduce-lab simulate …` on the same core as the app.
//!
//! [`args`] is the grammar (clap derive: flags, defaults, help, completions), [`values`] the
//! parsers of flag values (calling the core's), [`commands`] and [`nccl`] what each subcommand
//! does, [`reports`] how a result is printed. Bad input ends the program with status 2 and one
//! line naming the flag and what is allowed; a misspelt flag or command gets clap's "did you
//! mean".

pub mod args;
pub mod commands;
pub mod nccl;
pub mod reports;
pub mod values;

use crate::sim::scenario::Scenario;
use args::{Cli, Command};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};
use std::ffi::{OsStr, OsString};

/// The long names of the flags given on the command line (not left at their defaults).
#[derive(Debug, Default)]
pub struct Given(Vec<String>);

impl Given {
    fn of(cmd: &clap::Command, m: &ArgMatches) -> Given {
        Given(
            cmd.get_arguments()
                .filter(|a| m.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
                .filter_map(|a| a.get_long().map(str::to_string))
                .collect(),
        )
    }

    pub fn has(&self, long: &str) -> bool {
        self.0.iter().any(|g| g == long)
    }

    /// The flags given, by their long names.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    /// The first given flag that is not in `allowed`.
    pub fn first_not_in(&self, allowed: &[&str]) -> Option<&str> {
        self.0
            .iter()
            .map(String::as_str)
            .find(|g| !allowed.contains(g))
    }
}

/// The clap command with every valued flag taking values that start with '-' (a negative
/// latency is refused by the core with its reason, not taken for a flag).
fn command() -> clap::Command {
    fn hyphens(c: clap::Command) -> clap::Command {
        c.mut_args(|a| {
            if a.get_action().takes_values() {
                a.allow_hyphen_values(true)
            } else {
                a
            }
        })
        .mut_subcommands(hyphens)
    }
    hyphens(Cli::command())
}

/// Parses `args` (without the program name); on success the command, the flags given to its
/// subcommand, and nothing else to print.
fn parse<A: AsRef<OsStr>>(args: &[A]) -> Result<(Command, Given), clap::Error> {
    let mut cmd = command();
    let argv = std::iter::once(OsStr::new("allreduce-lab")).chain(args.iter().map(AsRef::as_ref));
    let m = cmd.try_get_matches_from_mut(argv)?;
    let given = match m.subcommand() {
        Some((name, sub)) => cmd
            .find_subcommand(name)
            .map(|c| Given::of(c, sub))
            .unwrap_or_default(),
        None => Given::default(),
    };
    Ok((Cli::from_arg_matches(&m)?.command, given))
}

/// An argument that is not UTF-8 where text is expected, named with its flag. Only a file name
/// (a flag with a file value hint) may be other bytes.
fn check_utf8<A: AsRef<OsStr>>(args: &[A]) -> Result<(), String> {
    let cmd = command();
    let is_path = |name: &str| {
        cmd.get_subcommands()
            .flat_map(|s| s.get_arguments())
            .any(|a| a.get_long() == Some(name) && a.get_value_hint() == clap::ValueHint::FilePath)
    };
    let lossy = |a: &OsStr| a.to_string_lossy().escape_debug().to_string();
    let mut previous: Option<&str> = None;
    for (i, arg) in args.iter().map(AsRef::as_ref).enumerate() {
        if let Some(text) = arg.to_str() {
            previous = Some(text);
            continue;
        }
        if i == 0 {
            return Err(format!("command '{}' is not valid UTF-8 text", lossy(arg)));
        }
        let bytes = arg.as_encoded_bytes();
        let value_of = if let Some(body) = bytes.strip_prefix(b"--") {
            let name = &body[..body.iter().position(|&c| c == b'=').unwrap_or(body.len())];
            match std::str::from_utf8(name) {
                Ok(name) if name.len() < body.len() => name.to_string(),
                _ => return Err(format!("flag '{}' is not valid UTF-8 text", lossy(arg))),
            }
        } else {
            match previous.and_then(|p| p.strip_prefix("--")) {
                Some(name) => name.to_string(),
                None => return Err(format!("argument '{}' is not valid UTF-8 text", lossy(arg))),
            }
        };
        if !is_path(&value_of) {
            return Err(format!(
                "--{value_of}: the value '{}' is not valid UTF-8 text",
                lossy(arg)
            ));
        }
        previous = None;
    }
    Ok(())
}

/// A clap error as one line: what is wrong, with clap's suggestion where it has one.
fn one_line(e: &clap::Error) -> String {
    let text = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let all = |k: ContextKind| match e.get(k) {
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(ContextValue::String(s)) => s.clone(),
        _ => String::new(),
    };
    // "--ranks <N>" → "--ranks".
    let flag = |s: String| s.split([' ', '=']).next().unwrap_or_default().to_string();
    let mean = |k: ContextKind| text(k).map_or(String::new(), |s| format!("; did you mean '{s}'?"));
    match e.kind() {
        ErrorKind::UnknownArgument => {
            let arg = text(ContextKind::InvalidArg).unwrap_or_default();
            if arg.starts_with('-') {
                format!(
                    "unknown flag '{}'{} (see --help)",
                    flag(arg),
                    mean(ContextKind::SuggestedArg)
                )
            } else {
                format!("unexpected argument '{arg}'; flags start with -- (see --help)")
            }
        }
        ErrorKind::InvalidSubcommand => format!(
            "unknown command '{}'; expected simulate, sweep, speedup, nccl-tests, calibrate, completions or help{}",
            text(ContextKind::InvalidSubcommand).unwrap_or_default(),
            mean(ContextKind::SuggestedSubcommand)
        ),
        ErrorKind::InvalidValue if text(ContextKind::InvalidValue).as_deref() == Some("") => {
            format!(
                "flag '{}' needs a value",
                flag(text(ContextKind::InvalidArg).unwrap_or_default())
            )
        }
        ErrorKind::InvalidValue => format!(
            "{}: invalid value '{}'; expected {}",
            flag(text(ContextKind::InvalidArg).unwrap_or_default()),
            text(ContextKind::InvalidValue).unwrap_or_default(),
            all(ContextKind::ValidValue)
        ),
        ErrorKind::MissingRequiredArgument => {
            format!("missing {}", all(ContextKind::InvalidArg))
        }
        ErrorKind::TooManyValues => {
            let f = flag(text(ContextKind::InvalidArg).unwrap_or_default());
            format!("flag '{f}' is a switch and takes no value: give '{f}' alone or leave it out")
        }
        ErrorKind::ArgumentConflict
            if text(ContextKind::InvalidArg).map(flag) == text(ContextKind::PriorArg).map(flag) =>
        {
            format!(
                "flag '{}' is given twice",
                flag(text(ContextKind::InvalidArg).unwrap_or_default())
            )
        }
        ErrorKind::ValueValidation if e.get(ContextKind::InvalidArg).is_some() => {
            let source = std::error::Error::source(e).map_or(String::new(), |s| s.to_string());
            format!(
                "{}: {source}",
                flag(text(ContextKind::InvalidArg).unwrap_or_default())
            )
        }
        // Our own value parsers' messages, and the rest: clap's first line.
        _ => {
            let rendered = e.to_string();
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            first.trim_start_matches("error: ").to_string()
        }
    }
}

/// Runs the CLI on `args` (without the program name), as the OS gave them: only a file name may
/// be other than UTF-8. Returns the text to print and the exit code.
pub fn run_cli<A: AsRef<OsStr>>(args: &[A]) -> (String, i32) {
    let mut early = String::new();
    let (text, code) = run_cli_to(args, &mut |s: &str| {
        early += s;
        Ok(())
    });
    if code == 0 {
        (early + &text, 0)
    } else {
        (text, code)
    }
}

/// [`run_cli`], giving what a command knows before it ends (`sweep`'s rows, one by one) to
/// `early` as it comes: the returned text is the rest.
pub fn run_cli_to<A: AsRef<OsStr>>(args: &[A], early: commands::Early) -> (String, i32) {
    if args.is_empty() {
        return (command().render_long_help().to_string(), 0);
    }
    if let Err(e) = check_utf8(args) {
        return (format!("error: {}", printable(&e, false)), 2);
    }
    let (command, given) = match parse(args) {
        Ok(parsed) => parsed,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return (e.to_string(), 0);
        }
        Err(e) => return (format!("error: {}", printable(&one_line(&e), false)), 2),
    };
    let result = match command {
        Command::Simulate(a) => commands::simulate(&a, &given),
        Command::Sweep(a) => commands::sweep(&a, &given, early),
        Command::Speedup(a) => commands::speedup(&a, &given),
        Command::NcclTests(a) => nccl::nccl_tests(&a),
        Command::Calibrate(a) => nccl::calibrate(&a),
        Command::Completions { shell } => Ok(completions(shell)),
    };
    match result {
        Ok(text) => (text, 0),
        Err(e) => (printable_error(&e), 2),
    }
}

/// A command's error as printed: `error: ` and its message made printable; a report after
/// the message's first line (a run that did not verify prints its report, JSON included) is our
/// own output and stays as it is.
pub fn printable_error(e: &str) -> String {
    match e.split_once('\n') {
        Some((message, report)) => format!("error: {}\n{report}", printable(message, false)),
        None => format!("error: {}", printable(e, false)),
    }
}

/// An error as a terminal should show it: control characters and bidirectional overrides escaped (a newline inside a value
/// cut the one-line message in two, an escape sequence in a file name reached the terminal), a
/// newline kept only where the message has lines of its own, and any word over
/// [`LONGEST_WORD`] characters cut short (a 100 KB value was echoed whole).
pub(crate) fn printable(message: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut word = 0;
    for c in message.chars() {
        if c == '\n' && keep_newlines {
            out.push(c);
            word = 0;
            continue;
        }
        let hidden = crate::sim::scenario_file::hidden(c);
        if c.is_whitespace() && !hidden {
            word = 0;
        } else {
            word += 1;
        }
        if word > LONGEST_WORD {
            if word == LONGEST_WORD + 1 {
                out.push('…');
            }
            continue;
        }
        if hidden {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The longest run of characters without a space that an error message shows.
const LONGEST_WORD: usize = 400;

/// The completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command(), "allreduce-lab", &mut out);
    let script = String::from_utf8_lossy(&out).into_owned();
    if shell != clap_complete::Shell::Bash {
        return script;
    }
    // clap_complete's bash script spells a hyphenated program's states two ways: its loop
    // reaches `allreduce__lab__subcmd__simulate`, its case arms say
    // `allreduce__subcmd__lab__subcmd__simulate`, so nothing after a subcommand would complete
    // (clap-rs/clap#6421, open). One spelling; a no-op once clap_complete is fixed.
    script.replace("allreduce__subcmd__lab", "allreduce__lab")
}

/// The textbook scenario that `allreduce-lab simulate ARGS` runs: `args` parsed as `simulate`'s
/// flags, exactly as the command line parses them. Errors are the one line the CLI prints.
pub fn scenario_from_args<A: AsRef<OsStr>>(args: &[A]) -> Result<Scenario, String> {
    let argv: Vec<OsString> = std::iter::once(OsString::from("simulate"))
        .chain(args.iter().map(|a| a.as_ref().to_owned()))
        .collect();
    check_utf8(&argv)?;
    match parse(&argv).map_err(|e| one_line(&e))? {
        (Command::Simulate(a), given) => {
            commands::check_topology_flags(&a.scenario, a.network.system.given(), &given)?;
            commands::scenario(&a.scenario, a.size)
        }
        _ => Err("not a simulate command".into()),
    }
}

/// Prints what [`run_cli`] returned: the text on stdout (status 0) or stderr (otherwise). A reader
/// that stops early (`| head`) is a normal end: status 0, nothing more said. Any other failure to
/// write (`> /dev/full`) is one line on stderr and status 1. Returns the exit status.
pub fn print_result(text: &str, code: i32) -> i32 {
    use std::io::{ErrorKind, Write};
    let text = text.trim_end();
    if code != 0 {
        // Nothing better to do if stderr itself is gone.
        let _ = writeln!(std::io::stderr().lock(), "{text}");
        return code;
    }
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => 0,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr().lock(),
                "error: cannot write the output: {e}"
            );
            1
        }
    }
}
