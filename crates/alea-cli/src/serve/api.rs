//! The JSON API: a request names a command and holds its options; the command runs in
//! this process exactly as on the command line with `--json`, and its output is the
//! response.
//!
//! Running the command itself (rather than a second implementation of each game's
//! answer) keeps the API's fields, defaults, guards and error messages those of the
//! command line by construction. An advice runs in the server's process, on the shared
//! tables; the other commands in a process of their own, so that a timeout stops their
//! work and nothing they do can take the server down.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;

use clap::{CommandFactory, FromArgMatches};
use serde_json::{Map, Value as Json};

use crate::failure::{BAD_INPUT, LIMIT};
use crate::Cli;

/// What a command reads, besides its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Nothing: `input` is refused.
    Nothing,
    /// Standard input when no file is named: `input` is what it reads (empty if absent).
    Stdin,
    /// A file named `-` for standard input, which the command needs: the model.
    File,
    /// A file only when given (`-`), something built in otherwise (the snakes board).
    MaybeFile,
}

/// One endpoint: `POST /api/PATH` runs `alea COMMAND... --json`.
pub struct Endpoint {
    pub path: &'static str,
    pub command: &'static [&'static str],
    pub reads: Reads,
    /// Whether the command has `--json` (else its text is the response).
    pub json: bool,
    /// Answered in the server's process: small bounded work on the shared Yahtzee
    /// tables. Every other command runs in a process of its own, which the timeout stops.
    pub inline: bool,
    pub about: &'static str,
}

pub const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        path: "patience/analyse",
        command: &["patience"],
        reads: Reads::Stdin,
        json: true,
        inline: false,
        about: "deals or positions (input): the random player's chance, winnability, moves",
    },
    Endpoint {
        path: "patience/stats",
        command: &["patience", "stats"],
        reads: Reads::Nothing,
        json: true,
        inline: false,
        about: "statistics over seeded random deals",
    },
    Endpoint {
        path: "patience/shuffle",
        command: &["patience", "shuffle"],
        reads: Reads::Nothing,
        json: false,
        inline: false,
        about: "seeded random deals in the judge format (text)",
    },
    Endpoint {
        path: "dice",
        command: &["dice"],
        reads: Reads::Stdin,
        json: true,
        inline: false,
        about: "expected throws with resets (input: the cases)",
    },
    Endpoint {
        path: "jenga",
        command: &["jenga"],
        reads: Reads::Stdin,
        json: true,
        inline: false,
        about: "the least expected game length (input: the tower)",
    },
    Endpoint {
        path: "jenga/hint",
        command: &["jenga", "--hint"],
        reads: Reads::Stdin,
        json: true,
        inline: false,
        about: "the best move for each colour (input: the tower)",
    },
    Endpoint {
        path: "mahjong",
        command: &["mahjong"],
        reads: Reads::Stdin,
        json: true,
        inline: false,
        about: "expected draws to a winning hand (input: the hand)",
    },
    Endpoint {
        path: "yahtzee/assign",
        command: &["yahtzee"],
        reads: Reads::Stdin,
        json: true,
        inline: false,
        about: "the judge's assignment of rounds to categories (input: the games)",
    },
    Endpoint {
        path: "yahtzee/solve",
        command: &["yahtzee", "solve"],
        reads: Reads::Nothing,
        json: true,
        inline: true,
        about: "the solitaire game's expected score under optimal play",
    },
    Endpoint {
        path: "yahtzee/advise",
        command: &["yahtzee", "advise"],
        reads: Reads::Nothing,
        json: true,
        inline: true,
        about: "every option at a position with its value and loss",
    },
    Endpoint {
        path: "yahtzee/simulate",
        command: &["yahtzee", "simulate"],
        reads: Reads::Nothing,
        json: true,
        inline: false,
        about: "seeded optimal games: the distribution of the final score",
    },
    Endpoint {
        path: "yahtzee/distribution",
        command: &["yahtzee", "distribution"],
        reads: Reads::Nothing,
        json: true,
        inline: false,
        about: "the final score's distribution from a position: percentiles, targets, bins",
    },
    Endpoint {
        path: "pig",
        command: &["pig"],
        reads: Reads::Nothing,
        json: true,
        inline: false,
        about: "the first player's chance under best play",
    },
    Endpoint {
        path: "pig/hint",
        command: &["pig", "hint"],
        reads: Reads::Nothing,
        json: true,
        inline: false,
        about: "roll or hold: both chances and the loss of the worse",
    },
    Endpoint {
        path: "pig/policy",
        command: &["pig", "policy"],
        reads: Reads::Nothing,
        json: true,
        inline: false,
        about: "the optimal hold threshold for every pair of scores",
    },
    Endpoint {
        path: "snakes",
        command: &["snakes"],
        reads: Reads::MaybeFile,
        json: true,
        inline: false,
        about: "expected spins on a built-in board or one given as input",
    },
    Endpoint {
        path: "check",
        command: &["check"],
        reads: Reads::File,
        json: true,
        inline: false,
        about: "a PRISM-language model (input) and its properties (prop)",
    },
];

/// Options a request may not set: they name files on the server's machine, or
/// settings of the whole server.
const REFUSED: &[(&str, &str)] = &[
    ("threads", "the server's --threads applies to every request"),
    (
        "table",
        "it names a file on the server; start the server with --table instead",
    ),
    ("save", "it names a file on the server"),
    ("strategy", "it names a file on the server"),
    (
        "props",
        "it names a file on the server; send each property in `prop`",
    ),
    (
        "cluster",
        "a cluster's processes are started on the command line, not by a request",
    ),
    ("hostfile", "it names a file on the server"),
    ("json", "every answer is JSON already"),
    ("help", "see `alea help` on the command line"),
    ("version", "see `alea --version` on the command line"),
];

thread_local! {
    /// The whole command line's definition, built once per thread: building it anew
    /// took a good part of a small request's time.
    static DEFINITION: RefCell<clap::Command> = RefCell::new(Cli::command());
}

/// Why a request failed: the HTTP status and the message.
#[derive(Debug)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

impl Refusal {
    pub fn bad(message: impl Into<String>) -> Self {
        Refusal {
            status: 400,
            message: message.into(),
        }
    }
}

/// The endpoint at `path` (after `/api/`).
pub fn endpoint(path: &str) -> Option<&'static Endpoint> {
    ENDPOINTS.iter().find(|e| e.path == path)
}

/// A prepared command: its arguments and its standard input.
#[derive(Debug)]
pub struct Command {
    pub args: Vec<String>,
    pub stdin: Option<String>,
}

/// The command line for `body` (a JSON object of options under their long names, `-`
/// written `_`), with `caps` (option, largest value) applied: an option absent is given
/// the cap, one above it refused (422).
pub fn command(e: &Endpoint, body: &[u8], caps: &[(&str, u64)]) -> Result<Command, Refusal> {
    let body: Json = if body.iter().all(u8::is_ascii_whitespace) {
        Json::Object(Map::new())
    } else {
        serde_json::from_slice(body)
            .map_err(|err| Refusal::bad(format!("the request body is not JSON: {err}")))?
    };
    let Json::Object(options) = body else {
        return Err(Refusal::bad(
            "the request body must be a JSON object of the command's options",
        ));
    };
    let mut args: Vec<String> = vec!["alea".into()];
    args.extend(e.command.iter().map(|s| s.to_string()));
    let mut stdin = None;
    for (key, value) in &options {
        if key == "input" {
            if e.reads == Reads::Nothing {
                return Err(Refusal::bad(format!(
                    "`input`: /api/{} reads no input",
                    e.path
                )));
            }
            let Json::String(text) = value else {
                return Err(Refusal::bad("`input`: expected the input's text, a string"));
            };
            stdin = Some(text.clone());
            continue;
        }
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(Refusal::bad(format!(
                "`{key}`: not an option name (lower-case letters, digits and `_`)"
            )));
        }
        if let Some((_, why)) = REFUSED.iter().find(|(name, _)| name == key) {
            return Err(Refusal::bad(format!("`{key}` is not accepted here: {why}")));
        }
        let name = key.replace('_', "-");
        if key.starts_with("max_") {
            // A guard: a client may lower it, never raise it.
            let asked = guard_value(key, value)?;
            let ceiling = guard_ceiling(e, &name, caps).ok_or_else(|| {
                Refusal::bad(format!("`{key}` is not an option of /api/{}", e.path))
            })?;
            if asked > ceiling {
                return Err(Refusal {
                    status: 422,
                    message: format!(
                        "`{key}` {asked} is above this server's limit of {ceiling}; lower it"
                    ),
                });
            }
            args.push(format!("--{name}={asked}"));
            continue;
        }
        let flag = format!("--{name}");
        let mut push = |value: &Json| -> Result<(), Refusal> {
            match value {
                Json::Bool(true) => args.push(flag.clone()),
                Json::Bool(false) | Json::Null => {}
                // `--name=value`: a value can never be read as another option.
                Json::String(s) => args.push(format!("{flag}={s}")),
                Json::Number(n) => args.push(format!("{flag}={n}")),
                _ => {
                    return Err(Refusal::bad(format!(
                        "`{key}`: expected a string, a number, true or false (or a list of them)"
                    )))
                }
            }
            Ok(())
        };
        match value {
            Json::Array(items) => items.iter().try_for_each(&mut push)?,
            other => push(other)?,
        }
    }
    // The server's own limits, where the client left the guard alone.
    for &(name, cap) in caps {
        if !options.contains_key(&name.replace('-', "_")) && default_of(e, name).is_some() {
            args.push(format!("--{name}={cap}"));
        }
    }
    match e.reads {
        Reads::File => args.push("-".into()),
        Reads::MaybeFile if stdin.is_some() => args.push("-".into()),
        _ => {}
    }
    if e.json {
        args.push("--json".into());
    }
    Ok(Command { args, stdin })
}

/// The value of a guard option: a whole number, as a number or a string.
fn guard_value(key: &str, value: &Json) -> Result<u64, Refusal> {
    let asked = match value {
        Json::Number(n) => n.as_u64(),
        Json::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    };
    asked.ok_or_else(|| Refusal::bad(format!("`{key}`: expected a whole number")))
}

/// The most a guard `--name` of `e` may be set to: the server's cap if it has one, else
/// the command's default; `None` when the command has no such guard.
fn guard_ceiling(e: &Endpoint, name: &str, caps: &[(&str, u64)]) -> Option<u64> {
    let default = default_of(e, name)?;
    Some(
        caps.iter()
            .find(|(capped, _)| *capped == name)
            .map_or(default, |&(_, cap)| cap),
    )
}

/// The default of the whole-number option `--name` of the command of `e`, if it has one.
fn default_of(e: &Endpoint, name: &str) -> Option<u64> {
    DEFINITION.with(|definition| {
        let root = definition.borrow();
        let mut command = &*root;
        for word in e.command.iter().filter(|w| !w.starts_with('-')) {
            command = command.find_subcommand(word)?;
        }
        let arg = command
            .get_arguments()
            .find(|a| a.get_long() == Some(name))?;
        let default = arg
            .get_default_values()
            .first()?
            .to_str()?
            .parse::<u64>()
            .ok();
        default
    })
}

/// Runs the command in a process of its own (this same binary), killed if it takes
/// longer than `timeout`: the output, or why not. A command that fails the way the
/// command line does gets its message and status; one that dies (memory exhausted,
/// say) takes only itself down.
pub async fn run_apart(command: Command, timeout: Duration) -> Result<Vec<u8>, Refusal> {
    let internal = |what: String| Refusal {
        status: 500,
        message: format!("internal error: {what}"),
    };
    let exe = std::env::current_exe().map_err(|e| internal(format!("cannot find alea: {e}")))?;
    let mut child = tokio::process::Command::new(exe)
        .args(&command.args[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| internal(format!("cannot start alea: {e}")))?;
    let mut stdin = child.stdin.take().expect("piped");
    let text = command.stdin.unwrap_or_default();
    // Written while the output is read: a large input and output must not wait on
    // each other.
    let feed = async move {
        let _ = stdin.write_all(text.as_bytes()).await;
    };
    let finished = async {
        let (_, output) = tokio::join!(feed, child.wait_with_output());
        output
    };
    let output = match tokio::time::timeout(timeout, finished).await {
        Err(_) => {
            return Err(Refusal {
                status: 422,
                message: format!(
                    "the request took more than {} s, this server's limit (its --timeout)",
                    timeout.as_secs()
                ),
            })
        }
        Ok(output) => output.map_err(|e| internal(format!("cannot run alea: {e}")))?,
    };
    if output.status.success() {
        return Ok(output.stdout);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    Err(failed(output.status.code(), &stderr))
}

/// A command's failure, as the command line reports it (exit status `code`, `error:
/// MESSAGE`), in HTTP's terms: bad input 400, a guard 422, anything else 500.
fn failed(code: Option<i32>, text: &str) -> Refusal {
    let text = text.trim_end();
    let mut message = text.strip_prefix("error: ").unwrap_or(text);
    if message.contains("\nUsage:") {
        // clap's: its first line; the usage lines after it name the command line, not
        // the request.
        message = message.lines().next().unwrap_or_default();
    }
    match code {
        Some(c) if c == i32::from(BAD_INPUT) => Refusal::bad(message),
        Some(c) if c == i32::from(LIMIT) => Refusal {
            status: 422,
            message: message.to_string(),
        },
        _ => Refusal {
            status: 500,
            message: format!("internal error: the command stopped unexpectedly: {message}"),
        },
    }
}

/// Runs the command in this process, as `alea` would with its output captured: the
/// output, or why not. Only for commands that read no input (an inline endpoint's):
/// this process's standard input is not the request's.
pub fn run(command: Command) -> Result<Vec<u8>, Refusal> {
    debug_assert!(command.stdin.is_none(), "an inline command reads no input");
    let parsed = DEFINITION.with(|definition| {
        let matches = definition
            .borrow_mut()
            .try_get_matches_from_mut(&command.args)?;
        Cli::from_arg_matches(&matches)
    });
    let cli = parsed.map_err(|e| failed(Some(i32::from(BAD_INPUT)), &e.render().to_string()))?;
    let mut out = Vec::new();
    let ran = catch_unwind(AssertUnwindSafe(|| crate::run(&cli, &mut out)));
    match ran {
        Ok(Ok(())) => Ok(out),
        Ok(Err(failure)) => Err(failed(Some(i32::from(failure.code)), &failure.message)),
        Err(_) => Err(Refusal {
            status: 500,
            message: "internal error: the command failed unexpectedly (see the server's log)"
                .into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(path: &str, body: &str) -> Result<Vec<String>, Refusal> {
        command(endpoint(path).expect("an endpoint"), body.as_bytes(), &[]).map(|c| c.args)
    }

    #[test]
    fn options_become_the_command_line() {
        let a = args(
            "yahtzee/advise",
            r#"{"dice": "1,1,5,6,6", "rolls_left": 2, "card": "ones=3", "rules": null}"#,
        )
        .expect("fine");
        assert_eq!(
            a,
            [
                "alea",
                "yahtzee",
                "advise",
                "--dice=1,1,5,6,6",
                "--rolls-left=2",
                "--card=ones=3",
                "--json"
            ]
        );
        let a = args(
            "check",
            r#"{"input": "dtmc", "prop": ["P=? [F x=1]", "P=? [F x=2]"], "exact": true}"#,
        )
        .expect("fine");
        assert_eq!(
            a,
            [
                "alea",
                "check",
                "--prop=P=? [F x=1]",
                "--prop=P=? [F x=2]",
                "--exact",
                "-",
                "--json"
            ]
        );
        // A value is never an option: `--dice=--json` gives --dice the text `--json`.
        let a = args("yahtzee/advise", r#"{"dice": "--table=/etc/passwd"}"#).expect("fine");
        assert_eq!(a[3], "--dice=--table=/etc/passwd");
    }

    #[test]
    fn commands_run_in_the_servers_process_read_no_input() {
        for e in ENDPOINTS.iter().filter(|e| e.inline) {
            assert_eq!(e.reads, Reads::Nothing, "{}", e.path);
        }
    }

    #[test]
    fn failures_keep_the_command_lines_message() {
        let clap = "error: unexpected argument '--bogus' found\n\nUsage: alea pig\n";
        let r = failed(Some(2), clap);
        assert_eq!(
            (r.status, r.message.as_str()),
            (400, "unexpected argument '--bogus' found")
        );
        let model = "error: <stdin>:2:3: unknown variable `y`\n  x\n  ^\n";
        let r = failed(Some(2), model);
        assert_eq!(
            (r.status, r.message.as_str()),
            (400, "<stdin>:2:3: unknown variable `y`\n  x\n  ^")
        );
        assert_eq!(failed(Some(3), "error: over --max-work").status, 422);
        assert_eq!(failed(None, "").status, 500);
    }

    #[test]
    fn files_and_server_settings_are_refused() {
        for body in [
            r#"{"table": "saved.table"}"#,
            r#"{"threads": 1}"#,
            r#"{"cluster": true}"#,
            r#"{"hostfile": "hosts"}"#,
            r#"{"Dice": "1"}"#,
            r#"{"dice": {"a": 1}}"#,
            r#"[1, 2]"#,
            r#"{"input": "x"}"#,
            "{",
        ] {
            let e = args("yahtzee/advise", body).expect_err(body);
            assert_eq!(e.status, 400, "{body}: {}", e.message);
        }
    }

    #[test]
    fn no_request_starts_a_cluster() {
        for (path, body) in [
            ("patience/stats", r#"{"cluster": true}"#),
            ("yahtzee/simulate", r#"{"cluster": true, "processes": 2}"#),
            ("yahtzee/distribution", r#"{"hostfile": "hosts"}"#),
        ] {
            let e = args(path, body).expect_err(body);
            assert_eq!(e.status, 400, "{body}: {}", e.message);
        }
    }

    #[test]
    fn caps_fill_in_and_refuse() {
        let e = endpoint("check").expect("an endpoint");
        let c = command(e, br#"{"input": "dtmc"}"#, &[("max-states", 1000)]).expect("fine");
        assert!(c.args.contains(&"--max-states=1000".to_string()));
        let r = command(e, br#"{"max_states": 1001}"#, &[("max-states", 1000)]).expect_err("over");
        assert_eq!(r.status, 422);
        // A guard is a whole number, never left out by null, false or a list.
        for body in [
            r#"{"max_states": null}"#,
            r#"{"max_states": false}"#,
            r#"{"max_states": [5]}"#,
        ] {
            let r = command(e, body.as_bytes(), &[("max-states", 1000)]).expect_err(body);
            assert_eq!(r.status, 400, "{body}");
        }
        let c = command(e, br#"{"max_states": "10"}"#, &[("max-states", 1000)]).expect("fine");
        assert!(c.args.contains(&"--max-states=10".to_string()));
        assert!(!c.args.contains(&"--max-states=1000".to_string()));
        // A guard without a server cap may not go above the command's default.
        let p = endpoint("pig").expect("an endpoint");
        let r = command(
            p,
            br#"{"goal": 1000000, "max_work": 18446744073709551615}"#,
            &[],
        )
        .expect_err("over the default");
        assert_eq!(r.status, 422, "{}", r.message);
        assert!(command(p, br#"{"max_work": 1000}"#, &[]).is_ok());
        let r = command(p, br#"{"max_bogus": 1}"#, &[]).expect_err("no such guard");
        assert_eq!(r.status, 400);
        // Another command has no such option: nothing is added.
        let d = endpoint("dice").expect("an endpoint");
        let c = command(d, b"{}", &[("max-states", 1000)]).expect("fine");
        assert!(!c.args.iter().any(|a| a.starts_with("--max-states")));
    }
}
