//! `alea serve`: every endpoint answers as the command line does with `--json`, bad
//! requests get the command line's message and the right status, and a bounded load
//! test (loopback only, a fixed number of requests) sees no error and flat memory.

mod common;
mod server;

use std::time::{Duration, Instant};

use serde_json::Value as Json;

use common::{alea, stdout};
use server::Server;

/// JSON with the timings (which differ from run to run) taken out.
fn without_seconds(text: &str) -> Vec<Json> {
    text.lines()
        .map(|line| {
            let mut v: Json = serde_json::from_str(line).expect("JSON");
            if let Some(o) = v.as_object_mut() {
                o.remove("seconds");
                o.remove("play_seconds");
                o.remove("games_per_second");
            }
            v
        })
        .collect()
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("an example")
}

#[test]
fn every_endpoint_answers_as_the_command_line() {
    let server = Server::start(&[]);
    assert!(
        server.base.starts_with("http://127.0.0.1:"),
        "loopback by default"
    );
    let cases: Vec<(&str, String, Vec<&str>, String)> = vec![
        (
            "/api/yahtzee/advise",
            r#"{"dice": "1,1,5,6,6", "rolls_left": 2, "card": "ones=3"}"#.into(),
            vec![
                "yahtzee",
                "advise",
                "--dice",
                "1,1,5,6,6",
                "--rolls-left",
                "2",
                "--card",
                "ones=3",
            ],
            String::new(),
        ),
        (
            "/api/yahtzee/advise",
            r#"{"card": "ones=3,twos=6,sixes=24", "rules": "no-joker"}"#.into(),
            vec![
                "yahtzee",
                "advise",
                "--card",
                "ones=3,twos=6,sixes=24",
                "--rules",
                "no-joker",
            ],
            String::new(),
        ),
        (
            "/api/pig/hint",
            r#"{"me": 40, "opponent": 60, "turn": 12, "exact": false}"#.into(),
            vec![
                "pig",
                "hint",
                "--me",
                "40",
                "--opponent",
                "60",
                "--turn",
                "12",
            ],
            String::new(),
        ),
        (
            "/api/pig",
            r#"{"goal": 10, "exact": true}"#.into(),
            vec!["pig", "--goal", "10", "--exact"],
            String::new(),
        ),
        (
            "/api/dice",
            json_input(&example("dice.txt"), r#""exact": true"#),
            vec!["dice", "--exact"],
            example("dice.txt"),
        ),
        (
            "/api/jenga/hint",
            json_input(&example("jenga.txt"), ""),
            vec!["jenga", "--hint"],
            example("jenga.txt"),
        ),
        (
            "/api/mahjong",
            json_input(&example("mahjong.txt"), ""),
            vec!["mahjong"],
            example("mahjong.txt"),
        ),
        (
            "/api/patience/analyse",
            json_input(&example("patience.txt"), ""),
            vec!["patience"],
            example("patience.txt"),
        ),
        (
            "/api/yahtzee/assign",
            json_input(&example("yahtzee.txt"), ""),
            vec!["yahtzee"],
            example("yahtzee.txt"),
        ),
        ("/api/snakes", "{}".into(), vec!["snakes"], String::new()),
        (
            "/api/check",
            json_input(
                &example("pig.prism"),
                r#""prop": ["Pmax=? [F \"won\"]"], "const": "goal=20,h=10,first=0", "exact": true"#,
            ),
            vec![
                "check",
                "-",
                "--prop",
                "Pmax=? [F \"won\"]",
                "--const",
                "goal=20,h=10,first=0",
                "--exact",
            ],
            example("pig.prism"),
        ),
        (
            "/api/check",
            json_input(
                &example("pig_game.prism"),
                r#""prop": ["<<we>> Pmax=? [F \"won\"]"], "const": "goal=8,first=0", "at": "me=2,opp=3,t=2,p=1,go=false", "exact": true"#,
            ),
            vec![
                "check",
                "-",
                "--prop",
                "<<we>> Pmax=? [F \"won\"]",
                "--const",
                "goal=8,first=0",
                "--at",
                "me=2,opp=3,t=2,p=1,go=false",
                "--exact",
            ],
            example("pig_game.prism"),
        ),
        // The Model tab's paths of LTL and multi-objective queries.
        (
            "/api/check",
            json_input(
                &example("pig.prism"),
                r#""prop": ["Pmax=? [ (opp<2 U me>=4) & (F \"won\") ]", "multi(Pmax=? [F \"won\"], R{\"throws\"}min=? [C])"], "const": "goal=8,h=4,first=0", "exact": true"#,
            ),
            vec![
                "check",
                "-",
                "--prop",
                "Pmax=? [ (opp<2 U me>=4) & (F \"won\") ]",
                "--prop",
                "multi(Pmax=? [F \"won\"], R{\"throws\"}min=? [C])",
                "--const",
                "goal=8,h=4,first=0",
                "--exact",
            ],
            example("pig.prism"),
        ),
    ];
    for (path, body, args, stdin) in cases {
        let (status, answer) = server.post(path, &body);
        assert_eq!(status, 200, "{path} {body}: {answer}");
        let mut args = args;
        args.push("--json");
        let cli = stdout(&alea(&args, stdin.as_bytes()));
        assert_eq!(
            without_seconds(&answer),
            without_seconds(&cli),
            "{path} {body}"
        );
    }
    // A command without JSON answers in its text.
    let (status, deals) = server.post("/api/patience/shuffle", r#"{"seed": 7, "deals": 2}"#);
    assert_eq!(status, 200);
    assert_eq!(
        deals,
        stdout(&alea(
            &["patience", "shuffle", "--seed", "7", "--deals", "2"],
            b""
        ))
    );
}

/// `{"input": TEXT, MORE}`.
fn json_input(text: &str, more: &str) -> String {
    let input = serde_json::to_string(text).expect("a string");
    if more.is_empty() {
        format!(r#"{{"input": {input}}}"#)
    } else {
        format!(r#"{{"input": {input}, {more}}}"#)
    }
}

#[test]
fn bad_requests_get_the_command_lines_message_and_status() {
    let server = Server::start(&["--max-body", "2000", "--max-states", "100"]);
    let error = |(status, body): (u16, String)| -> (u16, String) {
        let v: Json = serde_json::from_str(&body).unwrap_or_else(|_| panic!("JSON: {body}"));
        (status, v["error"].as_str().expect("an error").to_string())
    };
    let cli_error = |args: &[&str], stdin: &str| -> String {
        let out = alea(args, stdin.as_bytes());
        let err = String::from_utf8(out.stderr).expect("text");
        err.strip_prefix("error: ")
            .expect("an error")
            .trim_end()
            .to_string()
    };
    // Bad input: the command's own message, status 400.
    let (status, message) = error(server.post("/api/yahtzee/advise", r#"{"dice": "1,1,5,6"}"#));
    assert_eq!(status, 400);
    assert_eq!(
        message,
        cli_error(&["yahtzee", "advise", "--dice", "1,1,5,6", "--json"], "")
    );
    let deal = "TD JD QD KD AD\n";
    let (status, message) = error(server.post("/api/patience/analyse", &json_input(deal, "")));
    assert_eq!(status, 400);
    assert_eq!(message, cli_error(&["patience", "--json"], deal));
    let model = "dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> (y'=1);\nendmodule\n";
    let (status, message) =
        error(server.post("/api/check", &json_input(model, r#""prop": "P=? [F x=1]""#)));
    assert_eq!(status, 400);
    assert_eq!(
        message,
        cli_error(&["check", "-", "--prop", "P=? [F x=1]", "--json"], model)
    );
    // Options that are not the command's, or not allowed here.
    for body in [
        r#"{"bogus": 1}"#,
        r#"{"table": "t.bin"}"#,
        r#"{"threads": 2}"#,
        "[1]",
        "{",
    ] {
        let (status, _) = error(server.post("/api/yahtzee/advise", body));
        assert_eq!(status, 400, "{body}");
    }
    // A body over the limit: 413.
    let big = json_input(&"x".repeat(3000), "");
    assert_eq!(error(server.post("/api/check", &big)).0, 413);
    // A guard: the command's (exit status 3 on the command line) or the server's: 422.
    let (status, message) = error(server.post(
        "/api/pig/hint",
        r#"{"me": 0, "opponent": 0, "turn": 2, "goal": 1000, "max_work": 1000}"#,
    ));
    assert_eq!(status, 422, "{message}");
    assert!(message.contains("--max-work"), "{message}");
    let (status, message) =
        error(server.post("/api/check", &json_input(model, r#""max_states": 101"#)));
    assert_eq!(status, 422);
    assert!(
        message.contains("max_states") && message.contains("100"),
        "{message}"
    );
    let walk = "dtmc\nmodule m\n  x : [0..1000];\n  [] x<1000 -> (x'=x+1);\nendmodule\n";
    let (status, message) = error(server.post(
        "/api/check",
        &json_input(walk, r#""prop": "P=? [F x=1000]""#),
    ));
    assert_eq!(status, 422);
    assert!(message.contains("--max-states"), "{message}");
    // Unknown endpoints and other methods.
    assert_eq!(error(server.post("/api/nothing", "{}")).0, 404);
    assert_eq!(server.get("/api/dice").0, 405);
    // The server still answers.
    assert_eq!(server.post("/api/pig", r#"{"goal": 5}"#).0, 200);
}

#[test]
fn slow_work_is_stopped_at_the_timeout_and_others_are_told_it_is_busy() {
    // A million million games take far longer than the 8 s allowed on any machine (a
    // million take about a second on two cores), and the 8 s are over the 5 s that the
    // next request waits for its turn.
    let server = Server::start(&[
        "--timeout",
        "8",
        "--workers",
        "1",
        "--max-games",
        "1000000000000",
    ]);
    let slow = r#"{"games": 1000000000000, "seed": 1}"#;
    std::thread::scope(|scope| {
        let first = scope.spawn(|| {
            let began = Instant::now();
            let answer = server.post("/api/yahtzee/simulate", slow);
            (answer, began.elapsed())
        });
        // The one worker is busy with it: the next request waits its turn, then 503.
        std::thread::sleep(Duration::from_millis(500));
        let (status, body) = server.post("/api/pig", r#"{"goal": 5}"#);
        assert_eq!(status, 503, "{body}");
        let ((status, body), took) = first.join().expect("the first request");
        assert_eq!(status, 422, "{body}");
        assert!(body.contains("--timeout"), "{body}");
        assert!(took < Duration::from_secs(20), "{took:?}");
    });
    // Its process was stopped with it: the worker is free at once.
    let (status, body) = server.post("/api/pig", r#"{"goal": 5}"#);
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_client_that_sends_nothing_is_let_go() {
    use std::io::{Read, Write};
    let server = Server::start(&[]);
    let address = server.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).expect("a connection");
    // Half a request head, then nothing.
    stream
        .write_all(b"POST /api/pig HTTP/1.1\r\nHost: x\r\n")
        .expect("sent");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a read timeout");
    let began = Instant::now();
    let mut rest = Vec::new();
    let closed = stream.read_to_end(&mut rest);
    assert!(
        closed.is_ok(),
        "the server closes the connection: {closed:?}"
    );
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "{:?}",
        began.elapsed()
    );
}

/// 20,000 advice requests over 64 connections at once: no error, memory flat; the
/// latencies are printed (the benchmark holds the target).
#[test]
fn a_bounded_load_leaves_no_error_and_flat_memory() {
    let server = Server::start(&[]);
    let body = r#"{"dice": "2,3,4,5,5", "rolls_left": 1, "card": "ones=3,chance=20"}"#;
    // The table is solved at start; the first answer waits for it.
    assert_eq!(server.post("/api/yahtzee/advise", body).0, 200);
    let load = server::advice_load(&server, body);
    eprintln!("{}", load.summary());
    assert!(
        load.rss_after_kib <= load.rss_before_kib + 16 * 1024,
        "memory grew: {}",
        load.summary()
    );
}
