//! Solitaire Yahtzee solved for the largest expected score, against the published optima
//! of the four rule variants (to 1e-6) and the published standard deviation.

use alea_games::yahtzee::solitaire::{solve, Rules};

#[test]
fn the_published_optima() {
    for (rules, published) in [
        (Rules::FreeJoker, 254.5896095),
        (Rules::ForcedJoker, 254.5877287),
        (Rules::NoJoker, 253.9702412),
        (Rules::NoBonus, 245.8707745),
    ] {
        let table = solve(rules);
        let (mean, sd) = table.expected_score();
        assert!((mean - published).abs() < 1e-6, "{}: {mean}", rules.name());
        if rules == Rules::FreeJoker {
            assert!((sd - 59.61).abs() < 0.005, "{sd}");
        }
    }
}
