//! Every judge command on hostile input: the samples, laid out anew half of the time,
//! truncated, flipped, padded with noise, their numbers made huge, signed or fractional,
//! and pure noise. Each run must end, in time, with exit status 0 and an answer, or with
//! 2 or 3, `error: ...` first on stderr and nothing on stdout. The mutations come from a
//! fixed seed.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const GAMES: [&str; 5] = ["patience", "dice", "jenga", "yahtzee", "mahjong"];
/// Mutated inputs per game.
const MUTANTS: usize = 40;
/// Longer than any answer or guard takes here; reaching it is a failure (a hang).
const DEADLINE: Duration = Duration::from_secs(120);

/// One mutation of `input`, half of the time on a new layout of its tokens.
fn mutate(input: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut v = if rng.gen() {
        relayout(input, rng)
    } else {
        input.to_vec()
    };
    let at = |rng: &mut ChaCha8Rng, v: &Vec<u8>| rng.gen_range(0..=v.len());
    match rng.gen_range(0..10) {
        0 => v.truncate(at(rng, &v)),
        1 => {
            for _ in 0..rng.gen_range(1..4) {
                if !v.is_empty() {
                    let i = rng.gen_range(0..v.len());
                    v[i] = rng.gen();
                }
            }
        }
        2 => {
            let noise: Vec<u8> = (0..rng.gen_range(1..64)).map(|_| rng.gen()).collect();
            let i = at(rng, &v);
            v.splice(i..i, noise);
        }
        3..=6 => {
            // Replace one number with something hostile.
            let numbers: Vec<(usize, usize)> = number_spans(&v);
            if let Some(&(start, end)) = numbers.get(rng.gen_range(0..numbers.len().max(1))) {
                let hostile: &[u8] = [
                    &b"99999999999999999999999999"[..],
                    b"18446744073709551615",
                    b"4294967296",
                    b"-1",
                    b"+3",
                    b"1.5",
                    b".",
                    b"0",
                    b"1e9",
                    b"",
                ][rng.gen_range(0..10)];
                v.splice(start..end, hostile.iter().copied());
            }
        }
        7 => {
            v = v
                .iter()
                .flat_map(|&b| {
                    if b == b'\n' {
                        vec![b'\r', b'\n']
                    } else {
                        vec![b]
                    }
                })
                .collect()
        }
        8 => {
            // A line repeated or removed.
            let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            let i = rng.gen_range(0..lines.len());
            let mut out: Vec<&[u8]> = lines.clone();
            if rng.gen() {
                out.insert(i, lines[i]);
            } else {
                out.remove(i);
            }
            v = out.join(&b'\n');
        }
        _ => v = (0..rng.gen_range(0..256)).map(|_| rng.gen()).collect(),
    }
    v
}

/// The tokens of `input` joined by random runs of spaces, tabs, CR and LF.
fn relayout(input: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let runs: [&[u8]; 5] = [b" ", b"\t", b"\n", b"\r\n", b"\r"];
    let mut v = Vec::with_capacity(input.len() * 2);
    for token in input
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
    {
        for _ in 0..rng.gen_range(1..3) {
            v.extend_from_slice(runs[rng.gen_range(0..runs.len())]);
        }
        v.extend_from_slice(token);
    }
    v
}

fn number_spans(v: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < v.len() {
        if v[i].is_ascii_digit() {
            let start = i;
            while i < v.len() && v[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Runs `alea args` on `stdin` and checks the contract of exit statuses.
fn check(args: &[&str], stdin: &[u8]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The command may stop reading early on an error.
        let _ = pipe.write_all(&input);
    });
    // Output is drained as it comes (a full pipe would stall the command), on a thread
    // of its own so that a hang can be noticed and stopped.
    let id = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    let out = match receiver.recv_timeout(DEADLINE) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!(
                "alea {args:?} ran past {DEADLINE:?} on {:?}",
                String::from_utf8_lossy(stdin)
            );
        }
    };
    feeder.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = || String::from_utf8_lossy(stdin).into_owned();
    match out.status.code() {
        Some(0) => {
            // Blank input is no deal and no game for the commands that read any number
            // of them: nothing to answer.
            let blank = stdin.iter().all(u8::is_ascii_whitespace);
            assert!(
                blank || !out.stdout.is_empty(),
                "{args:?}: no answer for {:?}",
                shown()
            );
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
        }
        Some(2) | Some(3) => {
            assert!(
                out.stdout.is_empty(),
                "{args:?}: stdout on failure for {:?}",
                shown()
            );
            assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        }
        other => panic!("{args:?}: exit {other:?} on {:?}: {stderr}", shown()),
    }
}

#[test]
fn judge_commands_survive_hostile_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for game in GAMES {
        let sample = std::fs::read(common::data(game, "sample.in")).unwrap();
        check(&[game], b"");
        for _ in 0..MUTANTS {
            let input = mutate(&sample, &mut rng);
            check(&[game], &input);
        }
    }
}

#[test]
fn options_survive_hostile_input_too() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let runs: [(&str, &[&str]); 5] = [
        ("patience", &["patience", "--json", "--exact"]),
        ("dice", &["dice", "--json", "--exact"]),
        ("jenga", &["jenga", "--hint"]),
        ("yahtzee", &["yahtzee", "--json"]),
        ("mahjong", &["mahjong", "--json", "--exact"]),
    ];
    for (game, args) in runs {
        let sample = std::fs::read(common::data(game, "sample.in")).unwrap();
        for _ in 0..MUTANTS / 4 {
            check(args, &mutate(&sample, &mut rng));
        }
    }
}
