//! Solitaire Yahtzee solved for the largest expected score, checked against the
//! published optima of the four rule variants (to 1e-6) and the published standard
//! deviation, against exact identities of advice, against an independent brute force
//! of small games in exact rationals, and against simulation.

use std::sync::OnceLock;

use alea_core::{solve as solve_model, Exact, Expansion, Limits, Model, Pick, Value};
use alea_games::yahtzee::solitaire::{
    advise, game_dice, parse_dice, simulate, simulate_from, simulate_with, solve, Book, Card,
    Choice, Dice, Player, Position, Rules, Start, Table, BOXES,
};

/// Each rule set solved once for all the tests of this file.
fn table(rules: Rules) -> &'static Table {
    static TABLES: [OnceLock<Table>; 4] = [const { OnceLock::new() }; 4];
    let i = Rules::ALL.iter().position(|&r| r == rules).unwrap();
    TABLES[i].get_or_init(|| solve(rules))
}

fn card(spec: &str) -> Card {
    Card::parse(spec, &Dice::new()).unwrap()
}

/// A card with every box filled but `open`, with made-up scores that fit each box.
fn card_open_only(open: &[&str], upper_each: u32, yahtzee: u32) -> Card {
    let mut c = Card::default();
    for (b, name) in BOXES.iter().enumerate() {
        if open.contains(name) {
            continue;
        }
        c.scores[b] = Some(match b {
            0..=5 => upper_each * (b as u32 + 1),
            11 => yahtzee,
            _ => 0,
        });
    }
    c
}

#[test]
fn the_published_optima() {
    for (rules, published) in [
        (Rules::FreeJoker, 254.5896095),
        (Rules::ForcedJoker, 254.5877287),
        (Rules::NoJoker, 253.9702412),
        (Rules::NoBonus, 245.8707745),
    ] {
        let table = table(rules);
        assert_eq!(table.positions, 536_320);
        let (mean, sd) = table.expected_score();
        assert!((mean - published).abs() < 1e-6, "{}: {mean}", rules.name());
        if rules == Rules::FreeJoker {
            assert!((sd - 59.6117).abs() < 5e-5, "{sd}");
        }
    }
}

#[test]
fn identities_of_advice() {
    let t = table(Rules::FreeJoker);
    let player = Player::new(t);
    // The empty card at the start of a turn.
    let empty = advise(&player, &Card::default(), None).unwrap();
    assert!((empty.value - 254.5896095).abs() < 1e-6);
    assert!(empty.options.is_empty());
    // Only chance open: the sum of five dice, rerolling below the mean of what is to
    // come, is worth 70/3.
    let chance = advise(&player, &card_open_only(&["chance"], 3, 0), None).unwrap();
    assert!(
        (chance.value - 70.0 / 3.0).abs() < 1e-12,
        "{}",
        chance.value
    );
    // Only the Yahtzee box open: 50 times the chance of five alike in three rolls,
    // worked out here by the count of the most common face, a chain of three steps.
    let p = yahtzee_in_three_rolls();
    let yahtzee = advise(&player, &card_open_only(&["yahtzee"], 3, 0), None).unwrap();
    assert!(
        (yahtzee.value - 50.0 * p).abs() < 1e-12,
        "{}",
        yahtzee.value
    );
    assert!((p - 2_783_176.0 / 60_466_176.0).abs() < 1e-15);
    // No rolls left and one box open: the only option is worth the box's score (with
    // the upper bonus when it completes it).
    for (open, dice, worth) in [
        ("chance", "6,6,5,1,2", 20.0),
        ("full-house", "2,2,3,3,3", 25.0),
        ("full-house", "2,2,3,3,4", 0.0),
        ("large-straight", "2,3,4,5,6", 40.0),
        ("sixes", "6,6,1,1,2", 12.0),
        // 45 from the other upper boxes: three sixes complete the upper bonus.
        ("sixes", "6,6,6,1,1", 18.0 + 35.0),
    ] {
        let c = card_open_only(&[open], 3, 0);
        let a = advise(&player, &c, Some((parse_dice(dice).unwrap(), 0))).unwrap();
        assert_eq!(a.options.len(), 1, "{open}");
        assert_eq!(a.options[0].value, worth, "{open} {dice}");
        assert_eq!(a.value, worth);
    }
    // Threes open with 54 from the other upper boxes: three threes earn the bonus.
    let c = card_open_only(&["threes"], 3, 0);
    let a = advise(&player, &c, Some((parse_dice("3,3,3,1,2").unwrap(), 0))).unwrap();
    assert_eq!(a.value, 9.0 + 35.0);
    let a = advise(&player, &c, Some((parse_dice("3,3,1,1,2").unwrap(), 0))).unwrap();
    assert_eq!(a.value, 6.0);
}

/// The chance of five alike within three rolls, keeping the most common face: a
/// chain over how many dice match, with the probabilities of rolling the rest.
fn yahtzee_in_three_rolls() -> f64 {
    // First roll: the distribution of the largest count of one face among 5 dice.
    let mut first = [0.0f64; 6];
    for i in 0..7776u32 {
        let mut counts = [0u8; 6];
        let mut x = i;
        for _ in 0..5 {
            counts[(x % 6) as usize] += 1;
            x /= 6;
        }
        first[usize::from(*counts.iter().max().unwrap())] += 1.0 / 7776.0;
    }
    // From k dice of one face kept, rolling the other 5 - k: the largest count after,
    // of that face or of another among the new dice.
    let step = |k: usize| -> [f64; 6] {
        let mut next = [0.0; 6];
        let n = 5 - k as u32;
        let total = 6f64.powi(n as i32);
        for i in 0..6u32.pow(n) {
            let mut x = i;
            let mut hits = 0;
            let mut counts = [0u8; 6];
            for _ in 0..n {
                let f = (x % 6) as usize;
                counts[f] += 1;
                if f == 0 {
                    hits += 1;
                }
                x /= 6;
            }
            let other = (1..6).map(|f| usize::from(counts[f])).max().unwrap_or(0);
            next[(k + hits).max(other)] += 1.0 / total;
        }
        next
    };
    let mut dist = first;
    for _ in 0..2 {
        let mut next = [0.0; 6];
        for k in 1..=5 {
            if k == 5 {
                next[5] += dist[5];
                continue;
            }
            for (j, p) in step(k).iter().enumerate() {
                next[j] += dist[k] * p;
            }
        }
        dist = next;
    }
    dist[5]
}

#[test]
fn every_position_worked_out_again_matches_the_table() {
    // The table's value of a position against the same turn worked out from the
    // table's successors alone, for every position of one in 97: this covers the
    // positions the solver did not solve but copied from an equivalent upper total.
    let t = table(Rules::FreeJoker);
    let player = Player::new(t);
    let mut turns = player.turns();
    let all: Vec<Position> = alea_games::yahtzee::solitaire::solve::reachable_positions()
        .into_iter()
        .step_by(97)
        .collect();
    for group in all.chunks(alea_games::yahtzee::solitaire::turn::LANES) {
        player.prepare(&mut turns, group);
        for (l, &p) in group.iter().enumerate() {
            let fresh = player.start_value(&turns, l);
            let stored = t.get(p).mean;
            assert!((fresh - stored).abs() < 1e-9, "{p:?}: {fresh} vs {stored}");
        }
    }
}

#[test]
fn simulation_agrees_with_the_exact_mean() {
    let t = table(Rules::FreeJoker);
    let player = Player::new(t);
    let scores = simulate(&player, 20_000, 7, &|_| {});
    let e = scores.estimate();
    assert_eq!(e.games, 20_000);
    assert!(e.contains(254.5896095), "{e:?}");
    assert!((e.std_dev - 59.61).abs() < 2.0, "{e:?}");
    // The same seed gives the same games, whatever the threads.
    let again = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| simulate(&player, 20_000, 7, &|_| {}));
    assert_eq!(again, scores);
    let median = scores.percentile(50.0).unwrap();
    assert!((230..=260).contains(&median), "{median}");
}

/// Game `game` of seed `seed` played alone, by asking the player at every roll: the
/// simulation's decisions are kept in a book and read back, so this checks the book.
fn one_game(player: &Player, start: &Start, seed: u64, game: u64) -> u32 {
    use rand::Rng;
    let dice = &player.plan.dice;
    let mut rng = game_dice(seed, game);
    // A throw of n dice: one draw below 6^n, its digits in base six.
    let mut complete = |mut keep: usize| {
        let n = 5 - dice.size(keep);
        let mut throw = rng.gen_range(0..6u32.pow(n as u32));
        for _ in 0..n {
            keep = dice.with_face[keep][(throw % 6) as usize];
            throw /= 6;
        }
        keep
    };
    let mut turns = player.turns();
    let (mut at, mut score) = (start.position, start.points);
    for turn in 0..13 - at.filled.count_ones() {
        player.prepare(&mut turns, &[at]);
        let (mut roll, rolls) = match start.roll {
            Some((counts, rolls)) if turn == 0 => (player.keep_of(&counts), rolls),
            _ => (complete(dice.by_size[5][0]), 2),
        };
        for left in (1..=rolls).rev() {
            roll = complete(player.best_keep(&turns, 0, roll, left));
        }
        let choice = player.best_box(&turns, 0, roll);
        score += choice.earned;
        // The next position, by the rules of the upper total and the Yahtzee flag.
        let filled = at.filled | 1 << choice.index;
        let upper = if choice.index < 6 {
            (u32::from(at.upper) + choice.points).min(63) as u8
        } else {
            at.upper
        };
        let yahtzee_50 = at.yahtzee_50 || (choice.index == 11 && choice.points == 50);
        at = Position {
            filled,
            upper,
            yahtzee_50,
        };
    }
    score
}

#[test]
fn simulated_games_are_the_games_played_one_by_one_from_the_advice() {
    let (card_text, counts, rolls) = (
        "ones=3,fours=12,full-house=25,chance=22",
        [0, 0, 2, 0, 1, 2],
        1,
    );
    for (rules, start, games) in [
        (Rules::FreeJoker, Start::game(), 300),
        (
            Rules::ForcedJoker,
            Start {
                position: card(card_text).position(),
                points: card(card_text).total(),
                roll: Some((counts, rolls)),
            },
            200,
        ),
    ] {
        let player = Player::new(table(rules));
        let mut expected = vec![0u64; 1600];
        for g in 0..games {
            expected[one_game(&player, &start, 5, g) as usize] += 1;
        }
        // A book that already holds some positions, on one thread and on two.
        let mut book = Book::new();
        simulate_with(&player, &mut book, &start, 40, 5, &|_| {});
        for threads in [1, 2] {
            let scores = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| simulate_with(&player, &mut book, &start, games, 5, &|_| {}));
            let mut got = scores.counts.clone();
            got.resize(expected.len(), 0);
            assert_eq!(got, expected, "{rules:?}, {threads} threads");
        }
        let mut fresh = simulate_from(&player, &start, games, 5, &|_| {}).counts;
        fresh.resize(expected.len(), 0);
        assert_eq!(fresh, expected, "{rules:?}, a fresh book");
    }
}

// An independent brute force: the game as a model for the engine, with its own
// scoring written from the rules, solved in exact rationals, for cards with few
// boxes open.

/// Dice sorted, 0 for "not there".
type Dice5 = [u8; 5];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Card5 {
    /// Boxes still open, bit per box in card order.
    open: u16,
    /// The upper total so far (not capped).
    upper: u8,
    /// The Yahtzee box holds 50.
    y50: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum S {
    /// `kept` dice kept, `left` rolls to come (3 at the start of a turn).
    Kept { card: Card5, kept: Dice5, left: u8 },
    /// Dice on the table with `left` rolls still to come.
    Rolled { card: Card5, dice: Dice5, left: u8 },
    /// A box just scored, for `points` in all.
    Scored { card: Card5, points: u32 },
}

struct Brute {
    rules: Rules,
    start: S,
}

fn sorted(mut d: Dice5) -> Dice5 {
    d.sort_unstable();
    d
}

fn plain(b: usize, d: &Dice5) -> u32 {
    let mut n = [0u32; 7];
    for &x in d {
        n[usize::from(x)] += 1;
    }
    let sum: u32 = d.iter().map(|&x| u32::from(x)).sum();
    let most = *n.iter().max().unwrap();
    let has = |run: &[usize]| run.iter().all(|&f| n[f] > 0);
    match b {
        0..=5 => (b as u32 + 1) * n[b + 1],
        6 => sum * u32::from(most >= 3),
        7 => sum * u32::from(most >= 4),
        8 => 25 * u32::from(n.contains(&3) && n.contains(&2)),
        9 => 30 * u32::from(has(&[1, 2, 3, 4]) || has(&[2, 3, 4, 5]) || has(&[3, 4, 5, 6])),
        10 => 40 * u32::from(has(&[1, 2, 3, 4, 5]) || has(&[2, 3, 4, 5, 6])),
        11 => 50 * u32::from(most == 5),
        _ => sum,
    }
}

/// The boxes a final roll may go in and what each box receives, by the rules' text.
fn placements(rules: Rules, card: Card5, d: &Dice5) -> Vec<(usize, u32)> {
    let open = |b: usize| card.open & (1 << b) != 0;
    let five_alike = d.iter().all(|&x| x == d[0]);
    let joker_rules = matches!(rules, Rules::FreeJoker | Rules::ForcedJoker);
    let all_open: Vec<usize> = (0..13).filter(|&b| open(b)).collect();
    if !(five_alike && !open(11) && joker_rules) {
        return all_open.iter().map(|&b| (b, plain(b, d))).collect();
    }
    let face = usize::from(d[0]) - 1;
    let joker = |b: usize| match b {
        8 => 25,
        9 => 30,
        10 => 40,
        _ => plain(b, d),
    };
    if rules == Rules::FreeJoker {
        // Joker values once the upper box of the face is filled.
        let face_filled = !open(face);
        return all_open
            .iter()
            .map(|&b| (b, if face_filled { joker(b) } else { plain(b, d) }))
            .collect();
    }
    if open(face) {
        return vec![(face, plain(face, d))];
    }
    let lower: Vec<usize> = all_open.iter().copied().filter(|&b| b >= 6).collect();
    if !lower.is_empty() {
        return lower.iter().map(|&b| (b, joker(b))).collect();
    }
    all_open.iter().map(|&b| (b, 0)).collect()
}

impl Model for Brute {
    type State = S;

    fn start(&self) -> S {
        self.start
    }

    fn expand(&self, s: S, out: &mut Expansion<S>) {
        match s {
            S::Kept { card, kept, left } => {
                out.chance(0);
                let have = kept.iter().filter(|&&x| x > 0).count();
                let n = 5 - have as u32;
                for i in 0..6u32.pow(n) {
                    let mut dice = kept;
                    let mut x = i;
                    for slot in dice.iter_mut().filter(|x| **x == 0) {
                        *slot = (x % 6) as u8 + 1;
                        x /= 6;
                    }
                    out.edge(S::Rolled {
                        card,
                        dice: sorted(dice),
                        left: left - 1,
                    });
                }
            }
            S::Rolled {
                card,
                dice,
                left: 0,
            } => {
                out.choice(Pick::Max, 0);
                let bonus100 =
                    dice.iter().all(|&x| x == dice[0]) && card.y50 && self.rules != Rules::NoBonus;
                for (b, points) in placements(self.rules, card, &dice) {
                    let mut next = card;
                    next.open &= !(1 << b);
                    let mut earned = points + if bonus100 { 100 } else { 0 };
                    if b < 6 {
                        next.upper += points as u8;
                        if card.upper < 63 && next.upper >= 63 {
                            earned += 35;
                        }
                    }
                    if b == 11 && points == 50 {
                        next.y50 = true;
                    }
                    out.edge(S::Scored {
                        card: next,
                        points: earned,
                    });
                }
            }
            S::Rolled { card, dice, left } => {
                out.choice(Pick::Max, 0);
                for mask in 0..32 {
                    let mut kept = [0u8; 5];
                    for (i, k) in kept.iter_mut().enumerate() {
                        if mask & (1 << i) != 0 {
                            *k = dice[i];
                        }
                    }
                    out.edge(S::Kept {
                        card,
                        kept: sorted(kept),
                        left,
                    });
                }
            }
            S::Scored { card, points } => {
                if card.open == 0 {
                    out.terminal(i64::from(points));
                } else {
                    out.chance(i64::from(points));
                    out.edge(S::Kept {
                        card,
                        kept: [0; 5],
                        left: 3,
                    });
                }
            }
        }
    }
}

#[test]
fn small_games_against_a_brute_force_in_exact_rationals() {
    let cases = [
        // Upper bonus in play: 51 from the other upper boxes, fours and two lower open.
        (
            Rules::FreeJoker,
            "ones=3,twos=6,threes=9,fives=15,sixes=18,three-of-a-kind=20,\
             four-of-a-kind=0,small-straight=30,large-straight=0,chance=22",
        ),
        // A Yahtzee box holding 50: bonuses and the forced joker.
        (
            Rules::ForcedJoker,
            "ones=2,twos=4,threes=9,fours=12,fives=15,three-of-a-kind=20,\
             four-of-a-kind=0,full-house=25,small-straight=30,yahtzee=50",
        ),
        (
            Rules::FreeJoker,
            "ones=2,twos=4,threes=9,fours=12,fives=15,three-of-a-kind=20,\
             four-of-a-kind=0,full-house=25,small-straight=30,yahtzee=50",
        ),
        (
            Rules::NoJoker,
            "ones=2,twos=4,fours=12,fives=15,sixes=30,three-of-a-kind=20,\
             four-of-a-kind=0,full-house=25,large-straight=40,yahtzee=50",
        ),
        (
            Rules::NoBonus,
            "ones=2,twos=4,fours=12,fives=15,sixes=30,three-of-a-kind=20,\
             four-of-a-kind=0,full-house=25,large-straight=40,yahtzee=50",
        ),
        // A zero in the Yahtzee box: the joker without the bonus.
        (
            Rules::FreeJoker,
            "ones=2,twos=4,threes=6,fours=12,sixes=30,three-of-a-kind=20,\
             four-of-a-kind=0,small-straight=30,large-straight=40,yahtzee=0",
        ),
    ];
    for (rules, spec) in cases {
        let c = card(spec);
        let at = c.position();
        let start = Card5 {
            open: !at.filled & 0x1fff,
            upper: c.scores[..6].iter().flatten().sum::<u32>() as u8,
            y50: at.yahtzee_50,
        };
        let brute = Brute {
            rules,
            start: S::Kept {
                card: start,
                kept: [0; 5],
                left: 3,
            },
        };
        let exact = solve_model::<_, Exact>(&brute, &Limits::default()).unwrap();
        let t = table(rules);
        let player = Player::new(t);
        let value = exact.start_value().to_f64();
        let stored = t.get(at).mean;
        assert!(
            (value - stored).abs() < 1e-9,
            "{} {spec}: exact {value}, table {stored}",
            rules.name()
        );
        // Mid-turn: every option of a few rolls, with 0, 1 and 2 rolls to come.
        for dice in ["6,6,6,6,6", "1,2,3,4,6", "4,4,4,2,2", "3,3,5,1,6"] {
            let counts = parse_dice(dice).unwrap();
            let mut d5: Dice5 = [0; 5];
            for (slot, x) in d5.iter_mut().zip(dice.split(',')) {
                *slot = x.parse().unwrap();
            }
            for left in 0..=2u8 {
                let a = advise(&player, &c, Some((counts, usize::from(left)))).unwrap();
                let rolled = S::Rolled {
                    card: start,
                    dice: sorted(d5),
                    left,
                };
                let best = exact.get(&rolled).expect("reached").to_f64();
                assert!((a.value - best).abs() < 1e-9, "{spec} {dice} {left}");
                for o in &a.options {
                    let state = match &o.choice {
                        Choice::Keep(faces) => {
                            let mut kept = [0u8; 5];
                            kept[..faces.len()].copy_from_slice(faces);
                            S::Kept {
                                card: start,
                                kept: sorted(kept),
                                left,
                            }
                        }
                        Choice::Score(b) => {
                            let mut next = start;
                            next.open &= !(1 << b.index);
                            if b.index < 6 {
                                next.upper += b.points as u8;
                            }
                            next.y50 |= b.index == 11 && b.points == 50;
                            S::Scored {
                                card: next,
                                points: b.earned,
                            }
                        }
                    };
                    let v = exact.get(&state).expect("an option").to_f64();
                    assert!(
                        (o.value - v).abs() < 1e-9,
                        "{} {spec} {dice} {left} {o:?}: exact {v}",
                        rules.name()
                    );
                }
            }
        }
    }
}
