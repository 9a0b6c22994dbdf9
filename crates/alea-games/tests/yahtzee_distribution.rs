//! The distribution of the final score of solitaire Yahtzee under optimal play, checked
//! three ways: a simulation of the whole game against the table's exact mean and
//! standard deviation; an independent oracle in exact rationals for late positions (the
//! dice enumerated with multinomial probabilities, the decisions read from the optimal
//! player) against the exact distribution in f64 (to 1e-12) and against the simulated
//! distribution (by a Kolmogorov distance bound and a chi-square test, both at level
//! 1e-6, and bin by bin); and the statistics themselves.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use alea_games::yahtzee::solitaire::dice::Counts;
use alea_games::yahtzee::solitaire::rules::{yahtzee_bonus, YAHTZEE};
use alea_games::yahtzee::solitaire::{
    advise, exact_score, exact_scores, parse_dice, simulate_from, solve, wilson, Card, Dice,
    Distribution, Player, Rules, Scores, Start, Table, BOXES,
};

type Q = BigRational;

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| solve(Rules::FreeJoker))
}

fn card(spec: &str) -> Card {
    Card::parse(spec, &Dice::new()).unwrap()
}

/// Where the games of `card` start, with `roll` (the dice and the rolls left).
fn start(card: &Card, roll: Option<(Counts, usize)>) -> Start {
    Start {
        position: card.position(),
        points: card.total(),
        roll,
    }
}

// Check 1: the whole game.

/// 200,000 games from the start. The mean's 95% interval is the normal one. The
/// standard deviation's comes from the sample variance, which for this many games is
/// nearly normal with the variance `(mu4 - sigma^4 (n - 3) / (n - 1)) / n` (the exact
/// variance of the sample variance; mu4 estimated by the sample's fourth central
/// moment), its ends then taken to the square root: a standard error of about 0.17
/// points on the standard deviation here. The seed is fixed, so the test is
/// deterministic; as a further guard, the standard deviation must lie within five of
/// those standard errors of the exact one.
#[test]
fn the_whole_game_agrees_with_the_exact_mean_and_standard_deviation() {
    let player = Player::new(table());
    let games = 200_000;
    let scores = simulate_from(&player, &Start::game(), games, 1, &|_| {});
    let d = Distribution::simulated(&scores);
    assert_eq!(d.games(), Some(games));
    let exact = exact_score(&player, &Card::default(), None).unwrap();
    assert!((exact.mean - 254.5896095).abs() < 1e-6, "{exact:?}");
    let sd = exact.std_dev.unwrap();
    assert!((sd - 59.6117).abs() < 5e-5, "{sd}");

    let (lo, hi) = d.mean_interval.unwrap();
    assert!(lo <= exact.mean && exact.mean <= hi, "{d:?}");
    let (lo, hi) = d.std_dev_interval.unwrap();
    assert!(lo <= sd && sd <= hi, "{lo} {hi}");
    // The interval is about 2 * 1.96 standard errors wide.
    let se = (hi - lo) / (2.0 * 1.959_963_984_540_054);
    assert!(se > 0.05 && se < 0.5, "{se}");
    assert!((d.std_dev - sd).abs() < 5.0 * se);

    // The percentiles are in order and the targets and bins add up.
    let p: Vec<u32> = d.percentiles().iter().map(|&(_, s)| s).collect();
    assert_eq!(p.len(), 7);
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    assert!((235..=260).contains(&p[3]), "median {}", p[3]);
    let bins = d.scores();
    assert_eq!(bins.iter().map(|b| b.count.unwrap()).sum::<u64>(), games);
    let at_least_200 = d.at_least(200);
    let above: u64 = bins
        .iter()
        .filter(|b| b.low >= 200)
        .map(|b| b.count.unwrap())
        .sum();
    assert_eq!(at_least_200.count, Some(above));
    assert_eq!(at_least_200.interval, Some(wilson(above, games)));
    let histogram = d.histogram(10);
    assert_eq!(
        histogram.iter().map(|b| b.count.unwrap()).sum::<u64>(),
        games
    );
    assert!(histogram.windows(2).all(|w| w[0].high + 1 == w[1].low));
}

// Check 2: an exact oracle for late positions.

/// Every multiset of `n` dice with the number of ordered rolls that show it.
fn multisets(n: u8) -> Vec<(Counts, u64)> {
    fn fill(face: usize, left: u8, c: &mut Counts, out: &mut Vec<Counts>) {
        if face == 5 {
            c[5] = left;
            out.push(*c);
            return;
        }
        for k in 0..=left {
            c[face] = k;
            fill(face + 1, left - k, c, out);
        }
    }
    let mut all = Vec::new();
    fill(0, n, &mut [0; 6], &mut all);
    let factorial = |k: u8| (1..=u64::from(k)).product::<u64>();
    all.into_iter()
        .map(|c| {
            let ways = factorial(n) / c.iter().map(|&k| factorial(k)).product::<u64>();
            (c, ways)
        })
        .collect()
}

/// The probability of each completion of a keep of `5 - n` dice: multinomial.
fn completions(n: u8) -> Vec<(Counts, Q)> {
    let all = 6u64.pow(u32::from(n));
    multisets(n)
        .into_iter()
        .map(|(c, ways)| (c, Q::new(BigInt::from(ways), BigInt::from(all))))
        .collect()
}

fn plus(a: &Counts, b: &Counts) -> Counts {
    std::array::from_fn(|f| a[f] + b[f])
}

/// The exact distribution of the final score from `card` (at the start of a turn, or
/// with the dice and rolls left of `first`) when every keep and every box is the one
/// the optimal player picks: the dice enumerated turn by turn in exact rationals, the
/// final score from the filled card (its boxes and upper bonus) plus the 100 bonuses of
/// further Yahtzees.
fn oracle(player: &Player, card: &Card, first: Option<(Counts, usize)>) -> BTreeMap<u32, Q> {
    let rules = player.table.rules;
    let dice = &player.plan.dice;
    let by_size: Vec<Vec<(Counts, Q)>> = (0..=5).map(completions).collect();
    let mut turns = player.turns();
    // (the card's scores, the 100 bonuses so far) -> probability.
    let mut now: BTreeMap<([Option<u32>; 13], u32), Q> = BTreeMap::new();
    now.insert((card.scores, 0), Q::from_integer(1.into()));
    let mut finals: BTreeMap<u32, Q> = BTreeMap::new();
    let mut first = first;
    while !now.is_empty() {
        let mut next: BTreeMap<([Option<u32>; 13], u32), Q> = BTreeMap::new();
        let given = first.take();
        for ((scores, bonuses), p) in std::mem::take(&mut now) {
            let here = Card { scores };
            if here.is_full() {
                *finals.entry(here.total() + bonuses).or_insert_with(Q::zero) += p;
                continue;
            }
            player.prepare(&mut turns, &[here.position()]);
            let (mut rolls, rolls_left): (BTreeMap<Counts, Q>, usize) = match given {
                Some((d, left)) => (BTreeMap::from([(d, Q::from_integer(1.into()))]), left),
                None => (by_size[5].iter().cloned().collect(), 2),
            };
            for left in (1..=rolls_left).rev() {
                let mut kept: BTreeMap<Counts, Q> = BTreeMap::new();
                for (roll, q) in rolls {
                    let k = player.best_keep(&turns, 0, player.keep_of(&roll), left);
                    *kept.entry(dice.keeps[k]).or_insert_with(Q::zero) += q;
                }
                rolls = BTreeMap::new();
                for (keep, q) in kept {
                    let n = 5 - keep.iter().sum::<u8>();
                    for (c, r) in &by_size[usize::from(n)] {
                        *rolls.entry(plus(&keep, c)).or_insert_with(Q::zero) += &q * r;
                    }
                }
            }
            for (roll, q) in rolls {
                let choice = player.best_box(&turns, 0, player.keep_of(&roll));
                assert!(scores[choice.index].is_none(), "a filled box chosen");
                let mut filled = scores;
                filled[choice.index] = Some(choice.points);
                let bonus = yahtzee_bonus(rules, scores[YAHTZEE] == Some(50), &roll);
                *next
                    .entry((filled, bonuses + bonus))
                    .or_insert_with(Q::zero) += q * &p;
            }
        }
        now = next;
    }
    finals
}

fn to_f64(q: &Q) -> f64 {
    q.to_f64().expect("a probability")
}

/// The mean and standard deviation of an exact distribution, in rationals then f64.
fn moments(d: &BTreeMap<u32, Q>) -> (f64, f64) {
    let mut mean = Q::zero();
    let mut square = Q::zero();
    for (&s, p) in d {
        let s = Q::from_integer(BigInt::from(s));
        mean += &s * p;
        square += &s * &s * p;
    }
    let variance = &square - &mean * &mean;
    (to_f64(&mean), to_f64(&variance).sqrt())
}

/// The upper normal quantile of 1e-6.
const Z_1E6: f64 = 4.753_424_308_8;
/// The level of the goodness-of-fit tests below.
const ALPHA: f64 = 1e-6;

/// The simulated scores against the exact distribution `exact` (probabilities by
/// score): the checks of a sample from it.
///
/// - Kolmogorov distance: by the Dvoretzky-Kiefer-Wolfowitz inequality (Massart's
///   constant), the empirical distribution function of `n` independent games lies
///   within `sqrt(ln(2 / alpha) / (2 n))` of the true one everywhere with probability at
///   least `1 - alpha`, for any distribution: a sound bound for every sample size.
/// - Chi-square: scores pooled in order until each group expects at least 5 games;
///   the statistic against the chi-square quantile of `1 - alpha` (Wilson-Hilferty).
/// - Bin by bin: the exact probability of each score inside its 95% Wilson interval
///   but for a few. About 5% of the bins miss when the interval covers as it should,
///   more where a score expects only a few games; the bins are not independent, so
///   this count is a guard against gross errors, allowed up to the 1e-6 tail of a
///   binomial with a miss rate of 10%, with the two tests above the sound criteria.
fn check_sample(what: &str, scores: &Scores, exact: &[f64]) {
    let n = scores.games();
    let nf = n as f64;
    let len = exact.len().max(scores.counts.len());
    let count = |s: usize| scores.counts.get(s).copied().unwrap_or(0);
    let prob = |s: usize| exact.get(s).copied().unwrap_or(0.0);
    for s in 0..len {
        assert!(
            count(s) == 0 || prob(s) > 0.0,
            "{what}: {} games scored {s}, which cannot happen",
            count(s)
        );
    }

    let (mut seen, mut expected, mut distance) = (0u64, 0.0, 0.0f64);
    for s in 0..len {
        seen += count(s);
        expected += prob(s);
        distance = distance.max((seen as f64 / nf - expected).abs());
    }
    let bound = ((2.0 / ALPHA).ln() / (2.0 * nf)).sqrt();
    assert!(
        distance <= bound,
        "{what}: Kolmogorov distance {distance} over {bound}"
    );

    let (mut statistic, mut groups) = (0.0, 0usize);
    let (mut o, mut e) = (0u64, 0.0);
    let mut pending = Vec::new();
    for s in 0..len {
        o += count(s);
        e += prob(s) * nf;
        if e >= 5.0 {
            pending.push((o, e));
            (o, e) = (0, 0.0);
        }
    }
    if let Some(last) = pending.last_mut() {
        last.0 += o;
        last.1 += e;
    }
    for &(o, e) in &pending {
        statistic += (o as f64 - e).powi(2) / e;
        groups += 1;
    }
    let df = (groups - 1) as f64;
    let h = 2.0 / (9.0 * df);
    let critical = df * (1.0 - h + Z_1E6 * h.sqrt()).powi(3);
    assert!(
        groups >= 3 && statistic <= critical,
        "{what}: chi-square {statistic} over {critical} ({groups} groups)"
    );

    let bins: Vec<usize> = (0..len).filter(|&s| prob(s) > 0.0).collect();
    let misses = bins
        .iter()
        .filter(|&&s| {
            let (lo, hi) = wilson(count(s), n);
            !(lo <= prob(s) && prob(s) <= hi)
        })
        .count();
    let allowed = binomial_quantile(bins.len() as u64, 0.10, ALPHA);
    assert!(
        misses as u64 <= allowed,
        "{what}: {misses} of {} bins miss their interval (allowed {allowed})",
        bins.len()
    );
    eprintln!(
        "{what}: {n} games, {} scores, {misses} outside their 95% interval (allowed \
         {allowed}), Kolmogorov distance {distance:.5} (bound {bound:.5}), chi-square \
         {statistic:.1} on {} degrees of freedom (critical {critical:.1})",
        bins.len(),
        groups - 1
    );
}

/// The smallest `m` with P(Binomial(n, q) > m) at most `alpha`.
fn binomial_quantile(n: u64, q: f64, alpha: f64) -> u64 {
    let mut term = (1.0 - q).powi(n as i32);
    let mut below = term;
    let mut m = 0;
    while 1.0 - below > alpha && m < n {
        term *= (n - m) as f64 / (m + 1) as f64 * q / (1.0 - q);
        below += term;
        m += 1;
    }
    m
}

/// A position and what the oracle checks there.
struct Case {
    name: &'static str,
    card: Card,
    first: Option<(Counts, usize)>,
}

fn cases() -> Vec<Case> {
    vec![
        // Chance and full house open, the Yahtzee box holding 50: a further Yahtzee
        // earns 100 and, its upper box filled, takes the full house as a joker.
        Case {
            name: "chance and full house open",
            card: card(
                "ones=2,twos=6,threes=9,fours=12,fives=15,sixes=12,three-of-a-kind=22,\
                 four-of-a-kind=0,small-straight=30,large-straight=0,yahtzee=50",
            ),
            first: None,
        },
        // Sixes and chance open, the upper total 45: three sixes or more earn the
        // upper bonus.
        Case {
            name: "sixes and chance open",
            card: card(
                "ones=3,twos=6,threes=9,fours=12,fives=15,three-of-a-kind=20,\
                 four-of-a-kind=0,full-house=25,small-straight=30,large-straight=40,\
                 yahtzee=0",
            ),
            first: None,
        },
        // The same within the turn: three sixes on the table, one roll to come.
        Case {
            name: "sixes and chance open, dice 6 6 6 2 1 with one roll left",
            card: card(
                "ones=3,twos=6,threes=9,fours=12,fives=15,three-of-a-kind=20,\
                 four-of-a-kind=0,full-house=25,small-straight=30,large-straight=40,\
                 yahtzee=0",
            ),
            first: Some((parse_dice("6,6,6,2,1").unwrap(), 1)),
        },
        // Three boxes open: fives (the bonus at stake), small straight, Yahtzee.
        Case {
            name: "fives, small straight and Yahtzee open",
            card: card(
                "ones=3,twos=8,threes=9,fours=12,sixes=18,three-of-a-kind=25,\
                 four-of-a-kind=0,full-house=25,large-straight=40,chance=21",
            ),
            first: None,
        },
    ]
}

#[test]
fn late_positions_against_an_exact_oracle_in_rationals() {
    let player = Player::new(table());
    for (i, case) in cases().iter().enumerate() {
        let open = BOXES
            .iter()
            .enumerate()
            .filter(|&(b, _)| case.card.scores[b].is_none())
            .count();
        let exact = oracle(&player, &case.card, case.first);
        let total: Q = exact.values().fold(Q::zero(), |a, p| a + p);
        assert_eq!(total, Q::from_integer(1.into()), "{}", case.name);
        let (mean, sd) = moments(&exact);

        // The table's value (the advice's within a turn), and its spread at a turn's
        // start.
        let value = exact_score(&player, &case.card, case.first).unwrap();
        assert!(
            (value.mean - mean).abs() < 1e-9,
            "{}: table {} oracle {mean}",
            case.name,
            value.mean
        );
        if case.first.is_none() {
            let advice = advise(&player, &case.card, None).unwrap();
            assert!((f64::from(case.card.total()) + advice.value - mean).abs() < 1e-9);
            assert!((value.std_dev.unwrap() - sd).abs() < 1e-9, "{}", case.name);
        }

        // The exact distribution in f64, the same to 1e-12 score by score.
        let start = start(&case.card, case.first);
        let fast = exact_scores(&player, &start);
        let high = *exact.keys().last().unwrap() as usize;
        assert_eq!(fast.len(), high + 1, "{}", case.name);
        for (s, &p) in fast.iter().enumerate() {
            let q = exact.get(&(s as u32)).map_or(0.0, to_f64);
            assert!((p - q).abs() < 1e-12, "{}: {s}: {p} vs {q}", case.name);
        }
        let d = Distribution::exact(fast.clone());
        assert!((d.mean - mean).abs() < 1e-9 && (d.std_dev - sd).abs() < 1e-9);

        // A simulation of the same play is a sample of that distribution.
        let games = 200_000;
        let scores = simulate_from(&player, &start, games, 11 + i as u64, &|_| {});
        let rationals: Vec<f64> = (0..=high)
            .map(|s| exact.get(&(s as u32)).map_or(0.0, to_f64))
            .collect();
        check_sample(case.name, &scores, &rationals);
        let sim = Distribution::simulated(&scores);
        let (lo, hi) = sim.mean_interval.unwrap();
        assert!(lo <= mean && mean <= hi, "{}: {lo} {hi} {mean}", case.name);
        eprintln!("{}: {open} open, mean {mean:.9}, sd {sd:.6}", case.name);
    }
}

#[test]
fn the_first_case_earns_the_yahtzee_bonus_and_the_second_the_upper_bonus() {
    let player = Player::new(table());
    let cases = cases();
    // Chance and full house, a Yahtzee at each turn: 100 + 25 and 100 + the sum.
    let c = &cases[0];
    let d = exact_scores(&player, &start(&c.card, None));
    let points = c.card.total();
    assert!(
        d.len() > (points + 200 + 25 + 5) as usize,
        "no double Yahtzee"
    );
    // Sixes and chance: five sixes in sixes is 30 and the upper bonus 35.
    let c = &cases[1];
    let d = exact_scores(&player, &start(&c.card, None));
    let points = c.card.total();
    assert!(d.len() > (points + 30 + 35) as usize);
    // A full card is its points.
    let full = card(
        "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=20,\
         four-of-a-kind=0,full-house=25,small-straight=30,large-straight=40,yahtzee=0,chance=20",
    );
    let d = exact_scores(&player, &start(&full, None));
    assert_eq!(d.len(), 234);
    assert_eq!(d[233], 1.0);
}

/// With five boxes open (the most the command works out exactly), the exact
/// distribution in f64 against the table and against a simulation. The mean is the
/// table's to 1e-9; the standard deviation to 1e-6 only, as the solver and the player
/// may break ties between keeps of equal value differently, which moves the spread (not
/// the mean) in its last digits.
#[test]
fn five_open_boxes_exactly_and_by_simulation() {
    let player = Player::new(table());
    let c = card(
        "ones=1,twos=4,sixes=24,three-of-a-kind=25,four-of-a-kind=0,full-house=25,\
         small-straight=30,yahtzee=50",
    );
    let start = start(&c, None);
    let exact = exact_scores(&player, &start);
    let total: f64 = exact.iter().sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let d = Distribution::exact(exact.clone());
    let value = exact_score(&player, &c, None).unwrap();
    assert!(
        (d.mean - value.mean).abs() < 1e-9,
        "{} {}",
        d.mean,
        value.mean
    );
    assert!((d.std_dev - value.std_dev.unwrap()).abs() < 1e-6);
    let scores = simulate_from(&player, &start, 100_000, 5, &|_| {});
    check_sample("five open", &scores, &exact);
}
