//! `alea check` on the project's own PRISM models: every expected answer in
//! `crates/alea-prism/tests/models/expected.json` (from the built-in games, by hand, and
//! from an independent brute force), exactly with `--exact` and within the certified bound
//! in floating point; the models of the built-in games against the games' own commands,
//! run side by side; and the errors of broken models at their line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value as Json;

fn alea() -> Command {
    Command::new(env!("CARGO_BIN_EXE_alea"))
}

fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../alea-prism/tests/models")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest() -> Json {
    let text = std::fs::read_to_string(models_dir().join("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("alea runs");
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json_lines(out: &Output) -> Vec<Json> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A fraction `p/q` or integer as an `f64`.
fn approx(fraction: &str) -> f64 {
    match fraction.split_once('/') {
        Some((p, q)) => {
            // Long fractions: keep 17 significant digits of each side.
            let digits = |s: &str| -> f64 {
                let s = s.trim_start_matches('-');
                let keep = s.len().min(17);
                let head: f64 = s[..keep].parse().unwrap();
                head * 10f64.powi((s.len() - keep) as i32)
            };
            let sign = if p.starts_with('-') { -1.0 } else { 1.0 };
            sign * digits(p) / digits(q)
        }
        None => fraction.parse().unwrap(),
    }
}

/// A case: its name, the property and the expected answer.
type Case = (String, String, String);

/// The cases of the manifest, grouped by model and constants so that one run of the
/// binary checks all of a model's properties.
fn grouped() -> BTreeMap<(String, String), Vec<Case>> {
    let mut groups: BTreeMap<(String, String), Vec<Case>> = BTreeMap::new();
    for case in manifest()["cases"].as_array().unwrap() {
        let key = (
            case["model"].as_str().unwrap().to_string(),
            case["constants"].as_str().unwrap().to_string(),
        );
        groups.entry(key).or_default().push((
            case["name"].as_str().unwrap().to_string(),
            case["property"].as_str().unwrap().to_string(),
            case["expected"].as_str().unwrap().to_string(),
        ));
    }
    groups
}

fn check_group(model: &str, constants: &str, props: &[Case], exact: bool, options: &[&str]) {
    let mut cmd = alea();
    cmd.arg("check")
        .arg(models_dir().join(model))
        .arg("--json")
        .args(options);
    if exact {
        cmd.arg("--exact");
    }
    if !constants.is_empty() {
        cmd.arg("--const").arg(constants);
    }
    for (_, prop, _) in props {
        cmd.arg("--prop").arg(prop);
    }
    let lines = json_lines(&run(&mut cmd));
    assert_eq!(lines.len(), props.len(), "{model} {constants}");
    for ((name, prop, expected), got) in props.iter().zip(&lines) {
        assert_eq!(got["property"].as_str().unwrap().trim(), prop.trim());
        if expected == "infinite" {
            assert_eq!(got["infinite"], true, "{name}: {got}");
            assert!(got["value"].is_null(), "{name}: {got}");
            continue;
        }
        assert_eq!(got["infinite"], false, "{name}: {got}");
        let value = got["value"].as_f64().unwrap();
        let bound = got["error_bound"].as_f64().unwrap();
        let want = approx(expected);
        if exact {
            assert_eq!(got["exact"].as_str().unwrap(), expected, "{name}");
            assert_eq!(bound, 0.0, "{name}");
            assert!(
                (value - want).abs() <= 1e-15 * want.abs().max(1.0),
                "{name}"
            );
        } else {
            // The certified bound holds, and it is within the default precision.
            assert!(
                (value - want).abs() <= bound + 1e-15 * want.abs().max(1.0),
                "{name}: {value} is not within {bound} of {expected}"
            );
            assert!(bound <= 1e-9 * want.abs().max(1.0), "{name}: bound {bound}");
        }
    }
}

#[test]
fn every_expected_answer_exactly() {
    for ((model, constants), props) in grouped() {
        check_group(&model, &constants, &props, true, &[]);
    }
}

/// Probabilities that add up to 1 are weights whose sums are 1 (in a dtmc's state, the
/// number of its commands, as it divides among them): `--weights` changes no answer.
#[test]
fn every_expected_answer_with_probabilities_read_as_weights() {
    for ((model, constants), props) in grouped() {
        check_group(&model, &constants, &props, true, &["--weights"]);
    }
}

#[test]
fn every_expected_answer_within_its_certified_bound() {
    for ((model, constants), props) in grouped() {
        check_group(&model, &constants, &props, false, &[]);
    }
}

#[test]
fn named_properties_from_files() {
    for entry in manifest()["props_files"].as_array().unwrap() {
        let mut cmd = alea();
        cmd.arg("check")
            .arg(models_dir().join(entry["model"].as_str().unwrap()))
            .arg("--props")
            .arg(models_dir().join(entry["props"].as_str().unwrap()))
            .args(["--exact", "--json"]);
        let constants = entry["constants"].as_str().unwrap();
        if !constants.is_empty() {
            cmd.arg("--const").arg(constants);
        }
        let lines = json_lines(&run(&mut cmd));
        for (name, want) in entry["expected"].as_object().unwrap() {
            let got = lines
                .iter()
                .find(|l| l["name"] == name.as_str())
                .unwrap_or_else(|| panic!("no property named {name} in {cmd:?}"));
            if want == "infinite" {
                assert_eq!(got["infinite"], true, "{name}");
            } else {
                assert_eq!(got["exact"], *want, "{name}");
            }
        }
    }
}

#[test]
fn broken_models_fail_at_their_place() {
    for case in manifest()["errors"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let model = case["model"].as_str().unwrap();
        let mut cmd = alea();
        cmd.arg("check").arg(models_dir().join(model));
        let constants = case["constants"].as_str().unwrap_or("");
        if !constants.is_empty() {
            cmd.arg("--const").arg(constants);
        }
        if let Some(p) = case["property"].as_str() {
            cmd.arg("--prop").arg(p);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}");
        assert!(stderr.starts_with("error: "), "{name}: {stderr}");
        let keyword = case["keyword"].as_str().unwrap().to_lowercase();
        assert!(
            stderr.to_lowercase().contains(&keyword),
            "{name}: no `{keyword}` in {stderr}"
        );
        let place = match case["in"].as_str().unwrap() {
            // A value given on the command line is placed at the constant's declaration.
            "constants" => format!("{model}:"),
            "property" => format!("--prop:{}:{}:", case["line"], case["column"]),
            _ => format!("{model}:{}:{}:", case["line"], case["column"]),
        };
        assert!(
            stderr.contains(&place),
            "{name}: expected {place} in {stderr}"
        );
        // The offending line is shown under the message, with a caret.
        assert!(stderr.lines().count() >= 3, "{name}: {stderr}");
        assert!(stderr.lines().nth(2).unwrap().contains('^'), "{name}");
    }
}

/// The exact answer of `alea check` for one property.
fn check_exact(model: &Path, constants: &str, prop: &str) -> String {
    let out = run(alea()
        .arg("check")
        .arg(model)
        .args(["--const", constants, "--prop", prop, "--exact", "--json"]));
    json_lines(&out)[0]["exact"].as_str().unwrap().to_string()
}

#[test]
fn dice_model_equals_alea_dice() {
    let input = workspace().join("examples/dice.txt");
    let out = run(alea().arg("dice").arg(&input).args(["--exact", "--json"]));
    let games: Vec<Vec<i64>> = std::fs::read_to_string(&input)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    let answers = json_lines(&out);
    assert_eq!(games.len(), answers.len());
    for (g, answer) in games.iter().zip(&answers) {
        let constants = format!(
            "n={},K1={},K2={},K3={},a={},b={},c={}",
            g[0], g[1], g[2], g[3], g[4], g[5], g[6]
        );
        let got = check_exact(
            &workspace().join("examples/dice.prism"),
            &constants,
            "R{\"throws\"}=? [F \"end\"]",
        );
        assert_eq!(got, answer["expected_throws_exact"].as_str().unwrap());
    }
}

#[test]
fn snakes_model_equals_alea_snakes() {
    for (overshoot, code) in [("stay", 0), ("bounce", 1), ("finish", 2)] {
        let out = run(alea().args(["snakes", "--exact", "--json", "--overshoot", overshoot]));
        let want = json_lines(&out)[0]["expected_spins_exact"]
            .as_str()
            .unwrap()
            .to_string();
        let got = check_exact(
            &workspace().join("examples/snakes.prism"),
            &format!("overshoot={code}"),
            "R{\"spins\"}=? [F \"end\"]",
        );
        assert_eq!(got, want, "overshoot {overshoot}");
    }
}

#[test]
fn pig_model_equals_alea_pig_against_a_fixed_opponent() {
    for (goal, hold) in [(8, 4), (20, 10)] {
        let out = run(alea().args([
            "pig",
            "--goal",
            &goal.to_string(),
            "--against",
            &format!("hold-at-{hold}"),
            "--exact",
            "--json",
        ]));
        let answer = &json_lines(&out)[0];
        for (first, field) in [(0, "moving_first_exact"), (1, "moving_second_exact")] {
            let got = check_exact(
                &workspace().join("examples/pig.prism"),
                &format!("goal={goal},h={hold},first={first}"),
                "Pmax=? [F \"won\"]",
            );
            assert_eq!(
                got,
                answer[field].as_str().unwrap(),
                "goal {goal} hold {hold}"
            );
        }
    }
}

#[test]
fn pig_as_a_game_equals_alea_pig_and_its_hints() {
    // Both players best: the chance of the player who throws first, and at a position of
    // each player the hint of `alea pig hint` (the other's chances are one minus ours).
    let game = workspace().join("examples/pig_game.prism");
    for goal in [8, 20] {
        let out = run(alea().args(["pig", "--goal", &goal.to_string(), "--exact", "--json"]));
        let want = json_lines(&out)[0]["first_player_wins_exact"].clone();
        let got = check_exact(
            &game,
            &format!("goal={goal},first=0"),
            "<<we>> Pmax=? [F \"won\"]",
        );
        assert_eq!(got, want.as_str().unwrap(), "goal {goal}");
    }
    let hint = &json_lines(&run(alea().args([
        "pig",
        "hint",
        "--goal",
        "20",
        "--me",
        "10",
        "--opponent",
        "12",
        "--turn",
        "5",
        "--exact",
        "--json",
    ])))[0];
    let at = |state: &str| -> Json {
        let out = run(alea()
            .arg("check")
            .arg(&game)
            .args([
                "--const",
                "goal=20,first=0",
                "--prop",
                "<<we>> Pmax=? [F \"won\"]",
            ])
            .args(["--at", state, "--exact", "--json"]));
        json_lines(&out)[0]["at"]["choices"].clone()
    };
    let ours = at("me=10,opp=12,t=5,p=0,go=false");
    assert_eq!(ours[0]["action"], "[roll]");
    assert_eq!(ours[0]["exact"], hint["roll_exact"]);
    assert_eq!(ours[1]["action"], "[hold]");
    assert_eq!(ours[1]["exact"], hint["hold_exact"]);
    assert_eq!(ours[1]["loss_exact"], hint["loss_exact"]);
    // The same position on their turn: their loss is the hint's, our chances the rest.
    let theirs = at("me=12,opp=10,t=5,p=1,go=false");
    assert_eq!(theirs[0]["action"], "[oroll]");
    assert_eq!(theirs[1]["loss_exact"], hint["loss_exact"]);
    let rest = |x: &Json| 1.0 - approx(x.as_str().unwrap());
    assert!(
        (approx(theirs[0]["exact"].as_str().unwrap()) - rest(&hint["roll_exact"])).abs() < 1e-15
    );
    assert!(
        (approx(theirs[1]["exact"].as_str().unwrap()) - rest(&hint["hold_exact"])).abs() < 1e-15
    );
}

#[test]
fn pig_as_a_game_in_floating_point_is_within_its_bound_of_the_exact_value() {
    // The players' turns pass back and forth, so most components are guessed at
    // (strategy iteration through the turns' cut states) and the guess certified: the
    // value and its bound, against `alea pig --exact`.
    let game = workspace().join("examples/pig_game.prism");
    for goal in [20, 30] {
        let out = run(alea().args(["pig", "--goal", &goal.to_string(), "--exact", "--json"]));
        let exact = approx(
            json_lines(&out)[0]["first_player_wins_exact"]
                .as_str()
                .unwrap(),
        );
        let out = run(alea()
            .arg("check")
            .arg(&game)
            .args(["--const", &format!("goal={goal},first=0")])
            .args(["--prop", "<<we>> Pmax=? [F \"won\"]", "--json"]));
        let got = &json_lines(&out)[0];
        let (value, bound) = (
            got["value"].as_f64().unwrap(),
            got["error_bound"].as_f64().unwrap(),
        );
        assert!(bound > 0.0 && bound <= 1e-9, "goal {goal}: bound {bound}");
        assert!(
            (value - exact).abs() <= bound,
            "goal {goal}: {value} ± {bound} against {exact}"
        );
    }
}

#[test]
fn at_a_state_every_choice_with_its_value_and_loss() {
    let out = run(alea()
        .args([
            "check",
            "--const",
            "goal=20,h=10,first=0",
            "--prop",
            "Pmax=? [F \"won\"]",
            "--at",
            "me=10,opp=12,t=5,p=0,go=false",
            "--exact",
            "--json",
        ])
        .arg(workspace().join("examples/pig.prism")));
    let line = &json_lines(&out)[0];
    let at = &line["at"];
    assert_eq!(at["state"]["me"], 10);
    assert_eq!(at["state"]["go"], false);
    let choices = at["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 2);
    // Best first, worth the state's value; the other's loss is the difference.
    assert_eq!(choices[0]["exact"], at["exact"]);
    assert_eq!(choices[0]["loss_exact"], "0/1");
    let best = approx(choices[0]["exact"].as_str().unwrap());
    let other = approx(choices[1]["exact"].as_str().unwrap());
    let loss = approx(choices[1]["loss_exact"].as_str().unwrap());
    assert!(loss > 0.0 && (best - other - loss).abs() < 1e-12);
}

#[test]
fn at_a_game_state_the_choices_are_judged_by_its_player() {
    // In the duel, the attacker maximises a hit: on the defender's turn, running (a hit
    // then 2/3 * 3/4 = 1/2) is the defender's best, hiding (5/6 * 3/4 = 5/8) loses 1/8.
    let out = run(alea()
        .args([
            "check",
            "--prop",
            "<<attacker>> Pmax=? [F \"hit\"]",
            "--at",
            "t=1,st=0",
            "--exact",
            "--json",
        ])
        .arg(models_dir().join("duel.prism")));
    let line = &json_lines(&out)[0];
    assert_eq!(line["exact"], "3/4");
    let at = &line["at"];
    assert_eq!(at["exact"], "1/2");
    // Whose turn it is, and that this player plays against the coalition.
    assert_eq!(at["player"], "defender");
    assert_eq!(at["against"], true);
    let choices = at["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 2);
    assert_eq!(choices[0]["action"], "[run]");
    assert_eq!(choices[0]["loss_exact"], "0/1");
    assert_eq!(choices[1]["action"], "[hide]");
    assert_eq!(choices[1]["exact"], "5/8");
    assert_eq!(choices[1]["loss_exact"], "1/8");
    // The strategy: both sides' best choices, each with its player.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("duel.jsonl");
    run(alea()
        .args([
            "check",
            "--prop",
            "<<attacker>> Pmax=? [F \"hit\"]",
            "--exact",
        ])
        .arg("--strategy")
        .arg(&file)
        .arg(models_dir().join("duel.prism")));
    let lines: Vec<Json> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of = |t: i64| {
        lines
            .iter()
            .find(|l| l["state"]["t"] == t && l["state"]["st"] == 0)
            .unwrap()
    };
    assert_eq!(of(0)["player"], "attacker");
    assert_eq!(of(0)["action"], "[] #1");
    assert_eq!(of(1)["player"], "defender");
    assert_eq!(of(1)["action"], "[run]");
}

#[test]
fn a_duel_where_a_miss_is_worth_no_shots_opens_with_the_safe_shot() {
    // `F0`: with no shot fired yet the safe shot is best (19/16 against 9/8 for bold, in
    // duel.prism's header); with a miss keeping its shots (`Fc`) safe is best too (2
    // against 3/2); for the chance of a hit, bold.
    let cases = [
        (
            "<<attacker>> R{\"shots\"}max=? [F0 \"hit\"]",
            "19/16",
            "[] #2",
        ),
        (
            "<<attacker>> R{\"shots\"}max=? [Fc \"hit\"]",
            "2/1",
            "[] #2",
        ),
        ("<<attacker>> Pmax=? [F \"hit\"]", "3/4", "[] #1"),
    ];
    for (prop, value, first) in cases {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("duel.jsonl");
        let out = run(alea()
            .args(["check", "--prop", prop, "--exact", "--json", "--strategy"])
            .arg(&file)
            .arg(models_dir().join("duel.prism")));
        assert_eq!(json_lines(&out)[0]["exact"], value, "{prop}");
        let opening = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Json>(l).unwrap())
            .find(|l| l["state"]["t"] == 0 && l["state"]["st"] == 0)
            .unwrap();
        assert_eq!(opening["action"], first, "{prop}");
    }
}

#[test]
fn at_a_state_a_step_bounded_choice_is_worth_the_steps_left_after_it() {
    // From x=0, `a` reaches the target x=1 at once with chance 1/2 (else stays); `b`
    // goes to x=2, one step from it. Within 1 step only `a` can get there; within 2, `b`
    // surely does, and the least chance is `a` then `b` (1/2).
    let model = "mdp\nmodule m\n  x : [0..2];\n  [a] x=0 -> 1/2 : (x'=1) + 1/2 : true;\n  [b] x=0 -> (x'=2);\n  [] x=2 -> (x'=1);\n  [] x=1 -> true;\nendmodule\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.prism");
    std::fs::write(&path, model).unwrap();
    let cases = [
        (
            "Pmax=? [F<=1 x=1]",
            "1/2",
            [("[a]", "1/2", "0/1"), ("[b]", "0/1", "1/2")],
        ),
        (
            "Pmax=? [F<=2 x=1]",
            "1/1",
            [("[b]", "1/1", "0/1"), ("[a]", "3/4", "1/4")],
        ),
        (
            "Pmin=? [F<=2 x=1]",
            "1/2",
            [("[a]", "1/2", "0/1"), ("[b]", "1/1", "1/2")],
        ),
    ];
    for (prop, value, choices) in cases {
        for exact in [true, false] {
            let mut cmd = alea();
            cmd.args(["check", "--prop", prop, "--at", "x=0", "--json"])
                .arg(&path);
            if exact {
                cmd.arg("--exact");
            }
            let line = &json_lines(&run(&mut cmd))[0];
            let at = &line["at"];
            assert!(
                (at["value"].as_f64().unwrap() - approx(value)).abs() < 1e-12,
                "{prop}"
            );
            let got = at["choices"].as_array().unwrap();
            assert_eq!(got.len(), 2, "{prop}");
            for (c, (action, v, loss)) in got.iter().zip(choices) {
                assert_eq!(c["action"], action, "{prop}");
                assert!(
                    (c["value"].as_f64().unwrap() - approx(v)).abs() < 1e-12,
                    "{prop}"
                );
                assert!(
                    (c["loss"].as_f64().unwrap() - approx(loss)).abs() < 1e-12,
                    "{prop}"
                );
                if exact {
                    assert_eq!(c["exact"], v, "{prop}");
                    assert_eq!(c["loss_exact"], loss, "{prop}");
                }
            }
        }
    }
    // With no step left, nothing is chosen.
    let line = &json_lines(&run(alea()
        .args([
            "check",
            "--prop",
            "Pmax=? [F<=0 x=1]",
            "--at",
            "x=0",
            "--json",
        ])
        .arg(&path)))[0];
    assert_eq!(line["at"]["choices"].as_array().map_or(0, Vec::len), 0);
}

#[test]
fn a_strategy_names_the_best_action_of_every_state() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("best.jsonl");
    let model = workspace().join("examples/pig.prism");
    let out = run(alea()
        .arg("check")
        .arg(&model)
        .args([
            "--const",
            "goal=8,h=4,first=0",
            "--prop",
            "Pmax=? [F \"won\"]",
        ])
        .arg("--strategy")
        .arg(&file)
        .arg("--json"));
    let states = json_lines(&out)[0]["states"].as_u64().unwrap();
    let lines: Vec<Json> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, states);
    // Where we decide, after a scoring throw, the action is ours to take.
    let ours: Vec<&Json> = lines
        .iter()
        .filter(|l| l["state"]["p"] == 0 && l["state"]["go"] == false && l["state"]["t"] != 0)
        .collect();
    assert!(!ours.is_empty());
    assert!(ours
        .iter()
        .all(|l| l["action"] == "[roll]" || l["action"] == "[hold]"));
}

#[test]
fn guards_and_empty_models() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.prism");
    std::fs::write(&empty, "// nothing\n").unwrap();
    let out = alea().arg("check").arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no module"));

    let out = alea()
        .arg("check")
        .arg(workspace().join("examples/pig.prism"))
        .args(["--const", "goal=20,h=10,first=0", "--max-states", "100"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-states"));
    assert!(out.stdout.is_empty());
}

/// Bound queries (`P>=b [...]`): whether the value in the initial state meets the bound,
/// read without `min` or `max` in an mdp as "whatever the choices" (the least value for a
/// lower bound, the greatest for an upper one); a value on the bound itself is told by
/// exact arithmetic, not by its `f64` interval.
#[test]
fn bound_queries_tell_whether_the_value_meets_the_bound() {
    // Two ways to play, each until a win or a loss: a safe one (win 1/2 at once) and a
    // long one (win 1/10 or lose 3/10 a round, else again: 1/4 in all, 2.5 rounds).
    let model = std::env::temp_dir().join(format!("alea-bounds-{}.prism", std::process::id()));
    std::fs::write(
        &model,
        "mdp\nmodule m\n  s : [0..3] init 0;\n  \
         [safe] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\n  \
         [long] s=0 -> 1/10 : (s'=1) + 3/10 : (s'=2) + 6/10 : (s'=3);\n  \
         [again] s=3 -> 1/10 : (s'=1) + 3/10 : (s'=2) + 6/10 : (s'=3);\n\
         endmodule\nlabel \"won\" = s=1;\nlabel \"over\" = s=1 | s=2;\n\
         rewards \"rounds\" true : 1; endrewards\n",
    )
    .unwrap();
    let cases = [
        ("Pmax>=1/2 [F \"won\"]", true),
        ("Pmax>1/2 [F \"won\"]", false),
        ("Pmax<=0.5 [F \"won\"]", true),
        // No min or max: a lower bound must hold for the least chance, 1/4.
        ("P>=1/4 [F \"won\"]", true),
        ("P>0.25 [F \"won\"]", false),
        ("P>=1/2 [F \"won\"]", false),
        // An upper bound, for the greatest.
        ("P<1/2 [F \"won\"]", false),
        ("P<=1 [F \"won\"]", true),
        ("P>0 [F \"won\"]", true),
        ("P>=1 [F \"over\"]", true),
        // The most rounds: 1 + 1.5 from the long way.
        ("R{\"rounds\"}<=2.5 [F \"over\"]", true),
        ("R{\"rounds\"}<2.5 [F \"over\"]", false),
        ("R{\"rounds\"}min>=1 [F \"over\"]", true),
    ];
    for exact in [false, true] {
        for (prop, holds) in cases {
            let mut cmd = alea();
            cmd.args(["check", "--json", "--prop", prop]).arg(&model);
            if exact {
                cmd.arg("--exact");
            }
            let answer = &json_lines(&run(&mut cmd))[0];
            assert_eq!(answer["holds"], Json::Bool(holds), "{prop} exact {exact}");
        }
    }
    let text = run(alea()
        .args(["check", "--prop", "Pmax>=1/2 [F \"won\"]"])
        .arg(&model));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.starts_with("Pmax>=1/2 [F \"won\"] = true (value 0.5"),
        "{text}"
    );
    // `max` asks for a number: a bound inside it (true or false) is refused, at its place.
    let out = alea()
        .args([
            "check",
            "--prop",
            "filter(max, P>=0.5 [F \"won\"], \"init\")",
        ])
        .arg(&model)
        .output()
        .unwrap();
    std::fs::remove_file(&model).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--prop:1:1:") && err.contains("true/false"),
        "{err}"
    );
}

/// Decisions on reals (comparisons, `floor`, `ceil`) in constants, guards, updates,
/// rewards and properties: made on exact values with `--exact`, in double precision
/// without (`decisions.prism` works both out by hand).
#[test]
fn exact_checks_decide_on_exact_values() {
    let model = models_dir().join("decisions.prism");
    let cases = [
        ("P=? [ F s=1 ]", "0/1", 0.5),
        ("P=? [ F s=4 ]", "1/1", 0.0),
        ("P=? [ F k=3 ]", "1/1", 0.0),
        ("R{\"r\"}=? [ C<=1 ]", "2/1", 1.0),
        ("P=? [ F s=4 & 0.1 + 0.2 = 0.3 ]", "1/1", 0.0),
    ];
    for (prop, exact, double) in cases {
        let out = run(alea()
            .arg("check")
            .arg(&model)
            .args(["--prop", prop, "--exact", "--json"]));
        assert_eq!(json_lines(&out)[0]["exact"], exact, "{prop} exactly");
        let out = run(alea()
            .arg("check")
            .arg(&model)
            .args(["--prop", prop, "--json"]));
        let got = json_lines(&out)[0]["value"].as_f64().unwrap();
        assert!((got - double).abs() <= 1e-9, "{prop}: {got} in f64");
    }
}

/// Under `--fair` the loop that puts off the roll for ever no longer counts: the least
/// chance to win is that of a roll, 1/2, not 0, and the greatest chance never to finish
/// is 0, not 1. The greatest chance to win does not change.
#[test]
fn fair_strategies_must_roll() {
    let model = models_dir().join("retry.prism");
    let props = [
        "Pmin=? [ F \"won\" ]",
        "Pmax=? [ G !\"over\" ]",
        "P>=1/2 [ F \"won\" ]",
        "Pmax=? [ F \"won\" ]",
    ];
    for (fair, want) in [
        (false, ["0/1", "1/1", "false", "1/2"]),
        (true, ["1/2", "0/1", "true", "1/2"]),
    ] {
        for exact in [false, true] {
            let mut cmd = alea();
            cmd.arg("check").arg(&model).arg("--json");
            for p in props {
                cmd.arg(format!("--prop={p}"));
            }
            if fair {
                cmd.arg("--fair");
            }
            if exact {
                cmd.arg("--exact");
            }
            let lines = json_lines(&run(&mut cmd));
            assert_eq!(lines.len(), props.len());
            for (line, want) in lines.iter().zip(want) {
                let got = match (&line["holds"], &line["exact"]) {
                    (serde_json::Value::Bool(b), _) => b.to_string(),
                    (_, serde_json::Value::String(q)) => q.clone(),
                    _ => {
                        let v = line["value"].as_f64().unwrap();
                        let q: f64 = match want.split_once('/') {
                            Some((a, b)) => a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap(),
                            None => want.parse().unwrap(),
                        };
                        assert!(
                            (v - q).abs() <= line["error_bound"].as_f64().unwrap(),
                            "{line}"
                        );
                        want.to_string()
                    }
                };
                assert_eq!(got, want, "fair {fair}, exact {exact}: {line}");
            }
        }
    }
    // A fair strategy that attains 1/2 must roll now and then: randomised, so
    // --strategy writes no line for it (and one for the greatest expected steps).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("strategy.jsonl");
    run(alea()
        .arg("check")
        .arg(&model)
        .args(["--prop=Pmin=? [ F \"won\" ]", "--fair", "--strategy"])
        .arg(&file));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "");
    let out = alea()
        .arg("check")
        .arg(&model)
        .args(["--prop=Pmin=? [ F \"won\" ]", "--fair", "--cluster"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fair"));
}

/// `--weights`: each state's weights divided by their sum, a synchronised action weighing
/// the product of its modules' weights and its transition reward counting with its share
/// (the answers worked out in the model's comment); a negative weight, and weights that
/// add up to 0, are errors naming the state.
#[test]
fn weights_are_divided_by_their_sums() {
    let model = models_dir().join("weights.prism");
    let props = [
        ("P=? [ X x=1 ]", "1/7"),
        ("P=? [ F x=2 ]", "4/7"),
        ("P=? [ F x=3 ]", "2/7"),
        ("R{\"cost\"}=? [ C<=5 ]", "39/7"),
    ];
    for exact in [false, true] {
        let mut cmd = alea();
        cmd.arg("check").arg(&model).args(["--json", "--weights"]);
        for (p, _) in props {
            cmd.arg(format!("--prop={p}"));
        }
        if exact {
            cmd.arg("--exact");
        }
        let lines = json_lines(&run(&mut cmd));
        for (line, (_, want)) in lines.iter().zip(props) {
            if exact {
                assert_eq!(line["exact"], want, "{line}");
            } else {
                let v = line["value"].as_f64().unwrap();
                let bound = line["error_bound"].as_f64().unwrap();
                assert!((v - approx(want)).abs() <= bound + 1e-15, "{line}");
            }
        }
    }
    // Without --weights the same file is refused.
    let out = alea().arg("check").arg(&model).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not between 0 and 1"));

    // A synchronised action with a command of weight 0 weighs 0: no transition, no
    // share of the reward.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&model).unwrap().replace(
        "[roll] x=0 -> 2 : (x'=2) + 1 : (x'=3);",
        "[roll] x=0 -> 0 : (x'=2);",
    );
    let zero = dir.path().join("zero.prism");
    std::fs::write(&zero, text).unwrap();
    // An mdp's choices are divided each by its own sum.
    let choices = dir.path().join("choices.prism");
    std::fs::write(
        &choices,
        "mdp\nmodule m\n  x : [0..2];\n  [a] x=0 -> 3 : (x'=1) + 1 : (x'=2);\n  [b] x=0 -> 2 : (x'=2);\nendmodule\n",
    )
    .unwrap();
    for (path, props) in [
        (
            &zero,
            [("P=? [ X x=1 ]", "1/1"), ("R{\"cost\"}=? [ C<=5 ]", "3/1")],
        ),
        (
            &choices,
            [("Pmax=? [ F x=1 ]", "3/4"), ("Pmin=? [ F x=1 ]", "0/1")],
        ),
    ] {
        let mut cmd = alea();
        cmd.arg("check")
            .arg(path)
            .args(["--json", "--weights", "--exact"]);
        for (p, _) in props {
            cmd.arg(format!("--prop={p}"));
        }
        let lines = json_lines(&run(&mut cmd));
        let got: Vec<&str> = lines.iter().map(|l| l["exact"].as_str().unwrap()).collect();
        assert_eq!(got, props.map(|p| p.1), "{path:?}");
    }

    for (body, message) in [
        ("[] x=0 -> -1 : (x'=1) + 2 : true;", "this weight is -1"),
        ("[] x=0 -> 0 : (x'=1);", "add up to 0"),
    ] {
        let path = dir.path().join("bad.prism");
        std::fs::write(
            &path,
            format!("dtmc\nmodule m\n  x : [0..1];\n  {body}\nendmodule\n"),
        )
        .unwrap();
        for exact in [false, true] {
            let mut cmd = alea();
            cmd.arg("check").arg(&path).arg("--weights");
            if exact {
                cmd.arg("--exact");
            }
            let out = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(
                stderr.contains(message) && stderr.contains("x=0"),
                "{stderr}"
            );
            assert!(stderr.contains("bad.prism:4:"), "{stderr}");
        }
    }
}

/// Values with no rational form: `1/0` is infinity in both arithmetics (as PRISM's
/// exact mode has it), and `--json` keeps the sign of minus infinity.
#[test]
fn infinite_quotients_keep_their_sign() {
    let model = models_dir().join("decimals.prism");
    for exact in [false, true] {
        let mut cmd = alea();
        cmd.arg("check")
            .arg(&model)
            .args(["--prop=-1/0", "--prop=1/0", "--json"]);
        if exact {
            cmd.arg("--exact");
        }
        let lines = json_lines(&run(&mut cmd));
        assert_eq!(lines[0]["infinite"], true, "{lines:?}");
        assert_eq!(lines[0]["negative"], true, "{lines:?}");
        assert_eq!(lines[1]["infinite"], true, "{lines:?}");
        assert!(lines[1].get("negative").is_none(), "{lines:?}");
    }
}

/// `print` and `printall` list states with their values (`print` those not 0, or
/// true), `argmin` and `argmax` the states of their set: on a walk over 0..4 with a
/// fair coin, whose chance of reaching 4 from `s` is `s/4`.
#[test]
fn print_filters_list_states_with_their_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("walk.prism");
    std::fs::write(
        &path,
        "dtmc\nmodule walk\n  s : [0..4] init 2;\n  \
         [] s>0 & s<4 -> 1/2 : (s'=s-1) + 1/2 : (s'=s+1);\nendmodule\n",
    )
    .unwrap();
    let text = |prop: &str| {
        let out = run(alea()
            .arg("check")
            .arg(&path)
            .arg("--exact")
            .arg(format!("--prop={prop}")));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        text("filter(printall, P=? [F s=4])"),
        "filter(printall, P=? [F s=4]) = 1/2 (≈ 0.5)\n  (s=0): 0\n  (s=1): 1/4 (≈ 0.25)\n  \
         (s=2): 1/2 (≈ 0.5)\n  (s=3): 3/4 (≈ 0.75)\n  (s=4): 1\n"
    );
    // As PRISM: the property's value in the initial state, the states in the order of
    // their variables' values (not the order of exploration, from s=2), and inside an
    // expression the property's values unchanged.
    assert_eq!(
        text("filter(max, filter(print, P=? [F s=4]))"),
        "filter(max, filter(print, P=? [F s=4])) = 1\n"
    );
    let lines = json_lines(&run(alea().arg("check").arg(&path).args([
        "--exact",
        "--json",
        "--prop=filter(print, P=? [F s=4], s!=2)",
        "--prop=filter(print, s>=3)",
        "--prop=filter(argmax, P=? [F s=4])",
        "--prop=filter(count, s>=3)",
    ])));
    let listed = |line: &Json, key: &str| -> BTreeMap<i64, String> {
        line["listed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["state"]["s"].as_i64().unwrap(), e[key].to_string()))
            .collect()
    };
    let want = |pairs: &[(i64, &str)]| -> BTreeMap<i64, String> {
        pairs.iter().map(|&(s, v)| (s, v.to_string())).collect()
    };
    assert_eq!(
        listed(&lines[0], "exact"),
        want(&[(1, "\"1/4\""), (3, "\"3/4\""), (4, "\"1/1\"")])
    );
    assert_eq!(
        listed(&lines[1], "holds"),
        want(&[(3, "true"), (4, "true")])
    );
    assert_eq!(listed(&lines[2], "holds"), want(&[(4, "true")]));
    assert_eq!(
        lines[2]["holds"], false,
        "the initial state is not in the argmax"
    );
    assert!(lines[3].get("listed").is_none(), "count lists nothing");
}

#[test]
fn multi_objective_answers_whether_best_and_the_pareto_curve() {
    // Worked out in the model's header comment.
    let mut cmd = alea();
    cmd.arg("check")
        .arg(models_dir().join("multi_choice.prism"))
        .args(["--json", "--exact"])
        .args(["--prop", r#"multi(P>=0.5 [F "A"], P>=0.5 [F "B"])"#])
        .args(["--prop", r#"multi(P>=0.6 [F "A"], P>=0.5 [F "B"])"#])
        .args([
            "--prop",
            r#"multi(Pmax=? [F "A"], P>=0.8 [F "B"], P>=0.3 [F "loop"])"#,
        ])
        .args(["--prop", r#"multi(Pmax=? [F "A"], R{"cost"}min=? [C])"#])
        // Strict bounds: met only with room to spare.
        .args(["--prop", r#"multi(P>1 [F "A"])"#])
        .args(["--prop", r#"multi(P>=1 [F "A"], P>0 [F "B"])"#])
        .args(["--prop", r#"multi(P>0.5 [F "A"], P>0.4 [F "B"])"#]);
    let lines = json_lines(&run(&mut cmd));
    assert_eq!(lines[4]["holds"], false);
    assert_eq!(lines[5]["holds"], false);
    assert_eq!(lines[6]["holds"], true);
    assert_eq!(lines[0]["holds"], true);
    assert_eq!(lines[1]["holds"], false);
    assert_eq!(lines[2]["feasible"], false, "{}", lines[2]);
    assert!(lines[2]["value"].is_null());
    let corners: Vec<(String, String)> = lines[3]["pareto"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let exact = |i: usize| c[i]["exact"].as_str().unwrap().to_string();
            (exact(0), exact(1))
        })
        .collect();
    let want = [("1/1", "2/1"), ("1/2", "1/2"), ("0/1", "0/1")];
    assert_eq!(
        corners,
        want.map(|(a, b)| (a.to_string(), b.to_string())),
        "{}",
        lines[3]
    );
    // The same in floating point, by weighted sums; and as text.
    let out = run(alea()
        .arg("check")
        .arg(models_dir().join("multi_choice.prism"))
        .args(["--prop", r#"multi(Pmax=? [F "A"], R{"cost"}min=? [C])"#]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("= Pareto curve through (1"), "{text}");
}

#[test]
fn multi_objective_in_floating_point_agrees_with_the_single_objectives() {
    // Pig to 50 has 131,457 states, past the size that is checked again exactly: the
    // weighted sums alone answer. A bound on the throws that the best strategy for
    // winning keeps gives the greatest chance of winning; one below the fewest throws
    // cannot be met; one between gives a value between.
    let mut cmd = alea();
    cmd.arg("check")
        .arg(workspace().join("examples/pig.prism"))
        .args(["--const", "goal=50,h=4,first=0", "--json"])
        .args(["--prop", r#"Pmax=? [F "won"]"#])
        .args(["--prop", r#"R{"throws"}min=? [C]"#])
        .args(["--prop", r#"multi(Pmax=? [F "won"], R{"throws"}<=100 [C])"#])
        .args([
            "--prop",
            r#"multi(Pmax=? [F "won"], R{"throws"}<=25.9 [C])"#,
        ])
        .args(["--prop", r#"multi(Pmax=? [F "won"], R{"throws"}<=27 [C])"#])
        .args(["--prop", r#"multi(P>=0.96 [F "won"], R{"throws"}<=27 [C])"#])
        .args([
            "--prop",
            r#"multi(P>=0.962 [F "won"], R{"throws"}<=27 [C])"#,
        ]);
    let lines = json_lines(&run(&mut cmd));
    let bounds = |l: &serde_json::Value| {
        let v = l["value"].as_f64().unwrap();
        let e = l["error_bound"].as_f64().unwrap() * v.abs().max(1.0);
        (v - e, v + e)
    };
    let (win, most) = (bounds(&lines[0]), bounds(&lines[2]));
    assert!(win.0 <= most.1 && most.0 <= win.1, "{win:?} {most:?}");
    assert!(lines[1]["value"].as_f64().unwrap() > 25.9);
    assert_eq!(lines[3]["feasible"], false, "{}", lines[3]);
    let between = bounds(&lines[4]);
    assert!(between.1 < most.0 && between.0 > 0.9, "{between:?}");
    assert!(between.1 - between.0 < 2e-9);
    assert_eq!(lines[5]["holds"], true);
    assert_eq!(lines[6]["holds"], false);
}

#[test]
fn a_co_safe_path_in_a_game_is_the_game_on_the_finite_automatons_product() {
    // `F won` and `(F won) & (!lost U won)` are the same paths in Pig (a game ends with
    // one winner); `X X (F won)` too (the game lasts more than two steps).
    let run_props = |props: &[&str]| {
        let mut cmd = alea();
        cmd.arg("check")
            .arg(workspace().join("examples/pig_game.prism"))
            .args(["--const", "goal=8,first=0", "--exact", "--json"]);
        for p in props {
            cmd.args(["--prop", p]);
        }
        json_lines(&run(&mut cmd))
    };
    let lines = run_props(&[
        r#"<<we>> Pmax=? [F "won"]"#,
        r#"<<we>> Pmax=? [ (F "won") & (!"lost" U "won") ]"#,
        r#"<<we>> Pmin=? [F "won"]"#,
        r#"<<we>> Pmin=? [ X X (F "won") ]"#,
    ]);
    assert_eq!(lines[0]["exact"], lines[1]["exact"]);
    assert_eq!(lines[2]["exact"], lines[3]["exact"]);
    assert_ne!(lines[0]["exact"], lines[2]["exact"]);
    assert_eq!(lines[1]["automata"][0]["kind"], "finite");
    // A path that is not co-safe is refused in a game, at the path.
    let out = alea()
        .arg("check")
        .arg(workspace().join("examples/pig_game.prism"))
        .args([
            "--const",
            "goal=8,first=0",
            "--prop",
            r#"<<we>> Pmax=? [ G F "won" ]"#,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("co-safe"));
}
