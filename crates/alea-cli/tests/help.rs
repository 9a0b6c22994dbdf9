//! Every command's help ends with the exit statuses, and every judge command's help
//! describes its input.

mod common;

use common::{alea, stdout};

#[test]
fn help_texts_name_the_input_and_the_exit_statuses() {
    let commands: &[&[&str]] = &[
        &[],
        &["patience"],
        &["patience", "stats"],
        &["patience", "shuffle"],
        &["dice"],
        &["jenga"],
        &["yahtzee"],
        &["yahtzee", "solve"],
        &["yahtzee", "advise"],
        &["yahtzee", "simulate"],
        &["yahtzee", "distribution"],
        &["mahjong"],
        &["pig"],
        &["pig", "hint"],
        &["pig", "policy"],
        &["snakes"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let help = stdout(&alea(&args, b""));
        assert!(help.contains("Exit status:\n  0  success"), "{command:?}");
        assert!(help.contains("  3  a resource guard"), "{command:?}");
        if command.len() == 1 {
            assert!(help.contains("Input: "), "{command:?}");
        }
    }
}
