//! The page of `alea serve` in a headless browser, driven through WebDriver: what each tab
//! shows must be what the command line answers for the same position, and the page must
//! be small and quick to draw.
//!
//! One browser session runs every check in sequence (starting a browser is the slow
//! part). Without a WebDriver server for Chromium on the PATH the test is skipped, except
//! in CI, where it fails.

mod common;

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value as Json};

/// The longest any one thing the page does may take before the test fails.
const WAIT: Duration = Duration::from_secs(20);
/// The whole browser run, checks included.
const ALL: Duration = Duration::from_secs(150);

/// A child process ended when the test ends, by panic too; with `group`, its whole
/// process group (the WebDriver server starts the browser, which must not outlive it).
struct Reaper {
    child: Child,
    group: bool,
}

impl Drop for Reaper {
    fn drop(&mut self) {
        if self.group {
            // The child leads its own group: its id is the group's.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free local port")
        .port()
}

/// Starts `alea serve` on a free port: the process and the page's address.
fn serve() -> (Reaper, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_alea"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("alea serve starts");
    let stdout = child.stdout.take().expect("the server's stdout is piped");
    let reaper = Reaper {
        child,
        group: false,
    };
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server prints its address");
    let start = line.find("http://").expect("an address in the first line");
    let url = line[start..]
        .split_whitespace()
        .next()
        .expect("the address")
        .to_string();
    (reaper, url)
}

/// Starts the WebDriver server in its own process group and waits until it listens.
fn webdriver(driver: &Path) -> (Reaper, String) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("the WebDriver server starts");
    let reaper = Reaper { child, group: true };
    let deadline = Instant::now() + WAIT;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the WebDriver server does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (reaper, format!("http://127.0.0.1:{port}"))
}

/// Runs the `alea` binary with `args`, feeding `stdin`.
fn alea(args: &[&str], stdin: &str) -> Output {
    common::alea(args, stdin.as_bytes())
}

/// The JSON answer of a run that must succeed.
fn alea_json(args: &[&str], stdin: &str) -> Json {
    let out = alea(args, stdin);
    assert!(
        out.status.success(),
        "alea {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("alea prints JSON")
}

fn screenshots_dir() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder can be made");
    dir
}

#[test]
fn the_page_in_a_browser() {
    let Some(driver) = on_path("chromedriver") else {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("chromedriver not found: CI must run the browser test (apt-get install chromium chromium-driver)");
        }
        println!("skipped: chromedriver not found (apt-get install chromium chromium-driver)");
        return;
    };
    let (_server, url) = serve();
    let (_driver, driver_url) = webdriver(&driver);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the WebDriver client");
    runtime.block_on(async {
        let page = Page::open(&driver_url, &url).await;
        let checks = async {
            page.loads_small_and_fast().await;
            page.yahtzee_matches_the_command_line().await;
            page.yahtzee_best_play_loses_nothing().await;
            page.yahtzee_one_mistake_is_graded().await;
            page.pig_matches_the_command_line().await;
            page.patience_move().await;
            page.patience_error_is_the_command_lines().await;
            page.jenga_matches_the_command_line().await;
            page.dice_mahjong_and_model().await;
            page.phone_width().await;
        };
        let done = tokio::time::timeout(ALL, checks).await;
        // The session ends before the panic of a timeout, so that the browser quits.
        page.client
            .clone()
            .close()
            .await
            .expect("the session closes");
        done.expect("the browser checks finish in time");
    });
}

struct Page {
    client: Client,
    url: String,
    shots: PathBuf,
}

impl Page {
    async fn open(driver_url: &str, url: &str) -> Page {
        let mut options = json!({
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]
        });
        if let Some(browser) = on_path("chromium") {
            options["binary"] = json!(browser);
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(driver_url)
            .await
            .expect("a browser session starts");
        Page {
            client,
            url: url.to_string(),
            shots: screenshots_dir(),
        }
    }

    async fn js(&self, script: &str) -> Json {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("the script runs: {script}: {e}"))
    }

    /// Waits until `condition` (a JavaScript expression) holds.
    async fn until(&self, condition: &str, what: &str) {
        let script = format!("return !!({condition});");
        let deadline = Instant::now() + WAIT;
        while self.js(&script).await != json!(true) {
            assert!(Instant::now() < deadline, "waited too long for {what}");
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// How many answers the tab `name` has shown.
    async fn gen(&self, name: &str) -> u64 {
        let g = self
            .js(&format!(
                "return Number(document.getElementById('panel-{name}').dataset.gen);"
            ))
            .await;
        g.as_u64().expect("data-gen is a count")
    }

    /// Waits until the tab `name` has shown an answer after `before` and awaits none.
    async fn settled(&self, name: &str, before: u64) {
        self.until(
            &format!(
                "document.getElementById('panel-{name}').dataset.busy === '0' && \
                 Number(document.getElementById('panel-{name}').dataset.gen) > {before}"
            ),
            &format!("the {name} tab's answer"),
        )
        .await;
    }

    async fn find(&self, id: &str) -> fantoccini::elements::Element {
        self.client
            .find(Locator::Id(id))
            .await
            .unwrap_or_else(|e| panic!("#{id} is on the page: {e}"))
    }

    async fn click(&self, id: &str) {
        self.find(id)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("#{id} can be clicked: {e}"));
    }

    /// Replaces the text of the input `id` by typing `text`.
    async fn type_into(&self, id: &str, text: &str) {
        let input = self.find(id).await;
        input
            .clear()
            .await
            .unwrap_or_else(|e| panic!("#{id} clears: {e}"));
        input
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("#{id} takes keys: {e}"));
    }

    async fn text(&self, id: &str) -> String {
        self.find(id)
            .await
            .text()
            .await
            .unwrap_or_else(|e| panic!("#{id} has text: {e}"))
    }

    async fn attr(&self, id: &str, name: &str) -> Option<String> {
        self.find(id)
            .await
            .attr(name)
            .await
            .unwrap_or_else(|e| panic!("#{id} has attributes: {e}"))
    }

    /// Opens the tab `name` and waits for its first answer.
    async fn tab(&self, name: &str) {
        self.click(&format!("tab-{name}")).await;
        self.settled(name, 0).await;
    }

    async fn screenshot(&self, name: &str) {
        let png = self
            .client
            .screenshot()
            .await
            .expect("the browser takes a screenshot");
        std::fs::write(self.shots.join(format!("{name}.png")), png)
            .expect("the screenshot is written");
    }

    async fn loads_small_and_fast(&self) {
        self.client.goto(&self.url).await.expect("the page loads");
        self.until(
            "performance.getEntriesByType('navigation')[0].loadEventEnd > 0",
            "the load event",
        )
        .await;
        let timing = self
            .js("const n = performance.getEntriesByType('navigation')[0]; \
                 return [n.loadEventEnd, n.decodedBodySize];")
            .await;
        let load_ms = timing[0].as_f64().expect("loadEventEnd");
        let bytes = timing[1].as_f64().expect("decodedBodySize");
        println!("page: {bytes} bytes, drawn in {load_ms:.0} ms");
        assert!(bytes > 0.0 && bytes < 300_000.0, "page size {bytes}");
        assert!(load_ms < 1000.0, "page drawn in {load_ms} ms");
        // No script error on the way: the first tab answered.
        self.settled("yahtzee", 0).await;
        assert_eq!(self.text("yahtzee-error").await, "");
    }

    /// The options of the Yahtzee table: keep or box, value and loss.
    async fn yahtzee_options(&self) -> Vec<(Json, f64, f64)> {
        let rows = self
            .js(
                "return [...document.querySelectorAll('#yahtzee-options tbody tr')].map(r => [\
                 r.dataset.box !== undefined ? r.dataset.box : \
                 (r.dataset.keep === '' ? [] : r.dataset.keep.split(',').map(Number)), \
                 Number(r.dataset.value), Number(r.dataset.loss)]);",
            )
            .await;
        rows.as_array()
            .expect("a list of rows")
            .iter()
            .map(|r| {
                (
                    r[0].clone(),
                    r[1].as_f64().expect("a value"),
                    r[2].as_f64().expect("a loss"),
                )
            })
            .collect()
    }

    async fn set_die(&self, i: usize, face: u64) {
        let id = format!("yz-die-{i}");
        let now: u64 = self
            .attr(&id, "data-face")
            .await
            .and_then(|f| f.parse().ok())
            .expect("a die shows its face");
        let up = (face + 6 - now) % 6;
        for _ in 0..up {
            self.click(&id).await;
        }
    }

    async fn yahtzee_matches_the_command_line(&self) {
        let before = self.gen("yahtzee").await;
        for (i, face) in [2, 3, 3, 5, 6].into_iter().enumerate().skip(1) {
            self.set_die(i, face).await;
        }
        // The first die by keyboard: arrows step its face.
        let first = self.find("yz-die-0").await;
        let now: i64 = self
            .attr("yz-die-0", "data-face")
            .await
            .and_then(|f| f.parse().ok())
            .expect("a die shows its face");
        let key = char::from(if now > 2 { Key::Down } else { Key::Up }).to_string();
        for _ in 0..(now - 2).abs() {
            first.send_keys(&key).await.expect("the die takes keys");
        }
        assert_eq!(
            self.attr("yz-die-0", "data-face").await.as_deref(),
            Some("2")
        );
        self.type_into("yz-box-ones", "3").await;
        self.type_into("yz-box-full-house", "25").await;
        self.type_into("yz-box-chance", "22").await;
        for rolls in ["1", "0"] {
            self.find("yz-rolls")
                .await
                .select_by_value(rolls)
                .await
                .expect("rolls left can be chosen");
            self.settled("yahtzee", before).await;
            assert_eq!(self.text("yahtzee-error").await, "");
            let shown = self.yahtzee_options().await;
            let cli = alea_json(
                &[
                    "yahtzee",
                    "advise",
                    "--dice",
                    "2,3,3,5,6",
                    "--rolls-left",
                    rolls,
                    "--card",
                    "ones=3,full-house=25,chance=22",
                    "--json",
                ],
                "",
            );
            let options = cli["options"].as_array().expect("options");
            assert_eq!(shown.len(), options.len(), "rolls left {rolls}");
            assert!(!shown.is_empty());
            for ((what, value, loss), o) in shown.iter().zip(options) {
                let expected = if rolls == "0" {
                    o["box"].clone()
                } else {
                    o["keep"].clone()
                };
                assert_eq!(what, &expected);
                let v = o["value"].as_f64().expect("a value");
                let l = o["loss"].as_f64().expect("a loss");
                assert!((value - v).abs() <= 1e-9, "{what}: {value} against {v}");
                assert!((loss - l).abs() <= 1e-9, "{what}: {loss} against {l}");
            }
        }
        // The distribution of the final score from this position: the command line's
        // seeded games.
        self.click("yz-simulate").await;
        self.until(
            "document.getElementById('yz-chart').dataset.dice === '2,3,3,5,6' && \
             document.getElementById('yz-chart').dataset.rollsLeft === '0' && \
             document.getElementById('yz-chart').dataset.busy === '0'",
            "the simulated distribution from the position",
        )
        .await;
        let cli = alea_json(
            &[
                "yahtzee",
                "simulate",
                "--games",
                "20000",
                "--seed",
                "1",
                "--dice",
                "2,3,3,5,6",
                "--rolls-left",
                "0",
                "--card",
                "ones=3,full-house=25,chance=22",
                "--json",
            ],
            "",
        );
        let mean: f64 = self
            .attr("yz-chart", "data-mean")
            .await
            .and_then(|m| m.parse().ok())
            .expect("the chart's mean");
        assert_eq!(mean, cli["mean"].as_f64().expect("a mean"));
        assert_eq!(
            self.attr("yz-chart", "data-card-points").await.as_deref(),
            Some("50")
        );
        let bars = self
            .js("return document.querySelectorAll('#yz-chart svg rect').length;")
            .await;
        assert!(
            bars.as_u64().expect("a count") > 5,
            "the histogram is drawn"
        );
        self.screenshot("yahtzee").await;
    }

    /// Plays the seeded game to its end, choosing the row `pick` gives for each decision
    /// (its index in the table, given the decision's number); returns the final score.
    async fn play_yahtzee(&self, seed: &str, pick: impl Fn(usize) -> usize) -> u64 {
        self.type_into("yz-seed", seed).await;
        let mut before = self.gen("yahtzee").await;
        self.click("yz-new").await;
        for decision in 0..39 {
            self.settled("yahtzee", before).await;
            assert_eq!(self.text("yahtzee-error").await, "");
            if let Some(score) = self.attr("yz-final", "data-score").await {
                return score.parse().expect("a final score");
            }
            let rows = self
                .client
                .find_all(Locator::Css("#yahtzee-options tbody tr"))
                .await
                .expect("the option rows");
            let i = pick(decision).min(rows.len() - 1);
            before = self.gen("yahtzee").await;
            rows[i].click().await.expect("an option row can be clicked");
        }
        self.settled("yahtzee", before).await;
        let score = self
            .attr("yz-final", "data-score")
            .await
            .expect("the game is over after 13 rounds");
        score.parse().expect("a final score")
    }

    async fn total_loss(&self) -> f64 {
        self.attr("yz-total-loss", "data-loss")
            .await
            .and_then(|l| l.parse().ok())
            .expect("the total loss")
    }

    async fn yahtzee_best_play_loses_nothing(&self) {
        let score = self.play_yahtzee("7", |_| 0).await;
        assert!((5..=1575).contains(&score), "final score {score}");
        assert_eq!(self.total_loss().await, 0.0);
        assert!(self.text("yz-final").await.contains(&score.to_string()));
        assert!(self.text("yz-mistakes").await.contains("No mistakes"));
        self.screenshot("yahtzee-game").await;
    }

    async fn yahtzee_one_mistake_is_graded(&self) {
        // The second option of the first decision, which loses something.
        self.type_into("yz-seed", "11").await;
        let before = self.gen("yahtzee").await;
        self.click("yz-new").await;
        self.settled("yahtzee", before).await;
        let second = self.yahtzee_options().await[1].clone();
        assert!(second.2 > 0.0, "the second option loses something");
        let score = self.play_yahtzee("11", |d| usize::from(d == 0)).await;
        assert!(score > 0);
        let total = self.total_loss().await;
        assert!(
            (total - second.2).abs() <= 1e-9,
            "total loss {total} against {}",
            second.2
        );
        let mistakes = self.text("yz-mistakes").await;
        assert_eq!(mistakes.lines().count(), 1, "{mistakes}");
        assert!(mistakes.contains(&format!("{:.4}", second.2)), "{mistakes}");
    }

    async fn pig_matches_the_command_line(&self) {
        self.tab("pig").await;
        self.until(
            "document.getElementById('pig-heatmap').dataset.drawn === '1'",
            "the heat map",
        )
        .await;
        // Drawn: the map has many colours, not one.
        let colours = self
            .js("const c = document.getElementById('pig-heatmap'); \
                 const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; \
                 const seen = new Set(); \
                 for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] + ',' + d[i+1] + ',' + d[i+2]); \
                 return seen.size;")
            .await;
        assert!(colours.as_u64().expect("a count") > 10, "{colours}");
        let before = self.gen("pig").await;
        self.type_into("pig-me", "30").await;
        self.type_into("pig-opp", "60").await;
        self.type_into("pig-turn", "12").await;
        self.click("pig-hint-btn").await;
        self.settled("pig", before).await;
        assert_eq!(self.text("pig-error").await, "");
        let cli = alea_json(
            &[
                "pig",
                "hint",
                "--me",
                "30",
                "--opponent",
                "60",
                "--turn",
                "12",
                "--json",
            ],
            "",
        );
        for (id, field) in [
            ("pig-roll", "roll"),
            ("pig-hold", "hold"),
            ("pig-loss", "loss"),
        ] {
            let shown: f64 = self
                .attr(id, "data-value")
                .await
                .and_then(|v| v.parse().ok())
                .expect("a shown chance");
            let expected = cli[field].as_f64().expect("a chance");
            assert!(
                (shown - expected).abs() <= 1e-12,
                "{field}: {shown} against {expected}"
            );
        }
        assert_eq!(
            self.attr("pig-best", "data-value").await.as_deref(),
            cli["best"].as_str()
        );
        // A few throws against the optimal player, bounded.
        self.click("pig-new").await;
        for _ in 0..5 {
            let roll = self.find("pig-roll-btn").await;
            if !roll.is_enabled().await.expect("the button's state") {
                break;
            }
            roll.click().await.expect("roll");
        }
        assert!(self.text("pig-log").await.contains("New game"));
        self.screenshot("pig").await;
    }

    async fn patience_move(&self) {
        self.tab("patience").await;
        // The shuffle answers first, then its analysis.
        self.until(
            "document.querySelectorAll('#pat-moves tbody tr[data-piles]').length > 0 && \
             document.getElementById('panel-patience').dataset.busy === '0'",
            "the deal's moves",
        )
        .await;
        assert_eq!(self.text("patience-error").await, "");
        let best = self
            .js("const r = document.querySelector('#pat-moves tbody tr'); \
                 return [r.dataset.piles, Number(r.dataset.chance)];")
            .await;
        let piles: Vec<&str> = best[0].as_str().expect("piles").split(',').collect();
        let chance_after = best[1].as_f64().expect("a chance");
        let before = self.gen("patience").await;
        self.click(&format!("pat-pile-{}", piles[0])).await;
        self.click(&format!("pat-pile-{}", piles[1])).await;
        self.settled("patience", before).await;
        assert_eq!(self.text("patience-error").await, "");
        let position = self
            .js("return document.getElementById('pat-deal').value;")
            .await;
        let position = position.as_str().expect("the position's text");
        let lines: Vec<&str> = position.lines().collect();
        assert_eq!(lines.len(), 9, "one pile per line: {position}");
        for p in &piles {
            let i: usize = p.parse().expect("a pile number");
            assert_eq!(
                lines[i - 1].split_whitespace().count(),
                3,
                "pile {i} lost its top card"
            );
        }
        let cli = alea_json(&["patience", "--hint", "--json"], position);
        let shown: f64 = self
            .attr("pat-chance", "data-value")
            .await
            .and_then(|v| v.parse().ok())
            .expect("the shown chance");
        let expected = cli["random_play"].as_f64().expect("a chance");
        assert!(
            (shown - expected).abs() <= 1e-12,
            "{shown} against {expected}"
        );
        assert!((shown - chance_after).abs() <= 1e-12, "the move's chance");
        let moves = self
            .js("return [...document.querySelectorAll('#pat-moves tbody tr[data-piles]')].map(r => r.dataset.piles);")
            .await;
        let expected: Vec<Json> = cli["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| {
                let p = m["piles"].as_array().expect("two piles");
                json!(format!("{},{}", p[0], p[1]))
            })
            .collect();
        assert_eq!(moves, json!(expected));
        self.screenshot("patience").await;
    }

    async fn patience_error_is_the_command_lines(&self) {
        let bad = "QH 7D";
        let before = self.gen("patience").await;
        self.type_into("pat-deal", bad).await;
        self.settled("patience", before).await;
        let shown = self.text("patience-error").await;
        let out = alea(&["patience", "--hint", "--json"], bad);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).expect("a UTF-8 message");
        let expected = stderr.trim_end().trim_start_matches("error: ");
        assert_eq!(shown, expected);
        assert_eq!(
            self.attr("patience-error", "role").await.as_deref(),
            Some("alert")
        );
        self.screenshot("patience-error").await;
    }

    async fn jenga_matches_the_command_line(&self) {
        self.tab("jenga").await;
        assert_eq!(self.text("jenga-error").await, "");
        let tower = self
            .js("return document.getElementById('jenga-tower').value;")
            .await;
        let cli = alea_json(
            &["jenga", "--hint", "--json"],
            tower.as_str().expect("the tower's text"),
        );
        let shown: f64 = self
            .attr("jenga-expected", "data-value")
            .await
            .and_then(|v| v.parse().ok())
            .expect("the expected minutes");
        let expected = cli["expected_minutes"].as_f64().expect("minutes");
        assert!(
            (shown - expected).abs() <= 1e-9,
            "{shown} against {expected}"
        );
        let rows = self
            .js(
                "return [...document.querySelectorAll('#jenga-moves tbody tr')].map(r => [\
                 r.dataset.color, Number(r.dataset.level), r.dataset.slot, r.dataset.place, \
                 Number(r.dataset.expected)]);",
            )
            .await;
        let rows = rows.as_array().expect("rows");
        assert_eq!(rows.len(), 3);
        for row in rows {
            let colour = row[0].as_str().expect("a colour");
            let best = &cli["colors"][colour][0];
            assert_eq!(row[1], best["take"]["level"], "{colour}");
            assert_eq!(row[2], best["take"]["slot"], "{colour}");
            assert_eq!(row[3], best["place"], "{colour}");
            let e = best["expected"].as_f64().expect("minutes");
            let s = row[4].as_f64().expect("minutes");
            assert!((s - e).abs() <= 1e-9, "{colour}: {s} against {e}");
        }
        self.screenshot("jenga").await;
    }

    async fn dice_mahjong_and_model(&self) {
        self.tab("dice").await;
        assert_eq!(self.text("dice-error").await, "");
        let exact = self
            .js("return [...document.querySelectorAll('#dice-results tbody tr')].map(r => r.dataset.exact);")
            .await;
        assert_eq!(exact, json!(["8/7", "216/215"]));
        self.screenshot("dice").await;

        self.tab("mahjong").await;
        assert_eq!(self.text("mahjong-error").await, "");
        let exact = self
            .js("return [...document.querySelectorAll('#mahjong-results tbody tr')].map(r => r.dataset.exact);")
            .await;
        assert_eq!(exact, json!(["1/1"]));
        self.screenshot("mahjong").await;

        self.tab("model").await;
        assert_eq!(self.text("model-error").await, "");
        let before = self.gen("model").await;
        self.click("model-exact").await;
        self.click("model-go").await;
        self.settled("model", before).await;
        assert_eq!(self.text("model-error").await, "");
        let shown = self
            .js("return [[...document.querySelectorAll('#model-results tbody tr')].map(r => r.dataset.exact), \
                 [...document.querySelectorAll('#model-choices tbody tr')].map(r => [r.dataset.action, Number(r.dataset.loss)])];")
            .await;
        let model = self
            .js("return document.getElementById('model-text').value;")
            .await;
        let out = alea(
            &[
                "check",
                "-",
                "--prop",
                "Rmin=? [F \"done\"]",
                "--prop",
                "Rmax=? [F \"done\"]",
                "--exact",
                "--at",
                "x=3",
                "--json",
            ],
            model.as_str().expect("the model's text"),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answers: Vec<Json> = String::from_utf8(out.stdout)
            .expect("UTF-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        let exact: Vec<Json> = answers.iter().map(|a| a["exact"].clone()).collect();
        assert_eq!(shown[0], json!(exact));
        let choices: Vec<(Json, f64)> = answers
            .iter()
            .flat_map(|a| a["at"]["choices"].as_array().cloned().unwrap_or_default())
            .map(|c| (c["action"].clone(), c["loss"].as_f64().expect("a loss")))
            .collect();
        let shown_choices = shown[1].as_array().expect("the actions shown");
        assert_eq!(shown_choices.len(), choices.len());
        assert!(!choices.is_empty());
        for (s, (action, loss)) in shown_choices.iter().zip(&choices) {
            assert_eq!(&s[0], action);
            let l = s[1].as_f64().expect("a loss");
            assert!((l - loss).abs() <= 1e-12, "{action}: {l} against {loss}");
        }
        self.screenshot("model").await;

        // A two-player game: the heading of a state's choices says whose turn it is.
        let duel = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../alea-prism/tests/models/duel.prism"),
        )
        .expect("the duel model");
        self.js(&format!(
            "document.getElementById('model-text').value = {}; \
             document.getElementById('model-props').value = '<<attacker>> Pmax=? [F \"hit\"]'; \
             document.getElementById('model-at').value = 't=1,st=0'; return null;",
            serde_json::to_string(&duel).expect("a string")
        ))
        .await;
        let before = self.gen("model").await;
        self.click("model-go").await;
        self.settled("model", before).await;
        assert_eq!(self.text("model-error").await, "");
        let heading = self
            .js("return document.querySelector('#model-choices h3').textContent;")
            .await;
        let heading = heading.as_str().expect("a heading");
        assert!(
            heading.contains("defender\u{2019}s turn (against the coalition"),
            "{heading}"
        );
        let actions = self
            .js("return [...document.querySelectorAll('#model-choices tbody tr')].map(r => r.dataset.action);")
            .await;
        assert_eq!(actions, json!(["[run]", "[hide]"]));
    }

    async fn phone_width(&self) {
        self.client
            .set_window_size(390, 844)
            .await
            .expect("the window can be narrowed");
        self.click("tab-yahtzee").await;
        // Nothing wider than the screen but what scrolls on purpose.
        let width = self
            .js("return document.documentElement.scrollWidth;")
            .await;
        let width = width.as_f64().expect("a width");
        let inner = self.js("return window.innerWidth;").await;
        assert!(
            width <= inner.as_f64().expect("a width") + 1.0,
            "the page is {width} px wide at phone width"
        );
        self.screenshot("yahtzee-phone").await;
    }
}
