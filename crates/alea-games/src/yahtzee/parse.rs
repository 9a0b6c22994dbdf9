//! The judge's input: games of thirteen rounds, one round of five dice per line, until
//! the end of the input. Blank lines are skipped; a round must stand on one line, so
//! that a short round is reported where it is.

use super::score::Round;
use crate::text::{end_of_input, lines, ParseError};

/// Rounds in a game.
pub const ROUNDS: usize = 13;

/// A game: thirteen rounds in order.
pub type Game = [Round; ROUNDS];

/// Reads every game of the input. Nothing is returned unless the whole input is valid.
pub fn parse_games(input: &[u8]) -> Result<Vec<Game>, ParseError> {
    let mut games = Vec::new();
    let mut current = [[0u8; 5]; ROUNDS];
    let mut rounds = 0;
    let mut game_line = 0;
    for (line, tokens) in lines(input) {
        if tokens.is_empty() {
            continue;
        }
        if tokens.len() != 5 {
            let col = tokens.get(5).map_or_else(
                || {
                    let last = tokens.last().expect("not empty");
                    last.col + last.bytes.len()
                },
                |t| t.col,
            );
            return Err(ParseError::at(
                line,
                col,
                format!("a round is five dice, and line {line} has {}", tokens.len()),
            ));
        }
        for (i, token) in tokens.iter().enumerate() {
            current[rounds][i] = match token.bytes {
                [d @ b'1'..=b'6'] => d - b'0',
                _ => {
                    return Err(token.error(format!(
                        "{} is not a die; a die shows 1 to 6",
                        token.shown()
                    )))
                }
            };
        }
        if rounds == 0 {
            game_line = line;
        }
        rounds += 1;
        if rounds == ROUNDS {
            games.push(current);
            rounds = 0;
        }
    }
    if rounds > 0 {
        let (line, col) = end_of_input(input);
        return Err(ParseError::at(
            line,
            col,
            format!(
                "the input ends inside the game that starts at line {game_line}: \
                 it has {rounds} of its {ROUNDS} rounds"
            ),
        ));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse_games(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn reads_games_until_the_end() {
        let one = "1 2 3 4 5\n".repeat(13);
        let games = parse_games(format!("{one}\n\n{one}").as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1][12], [1, 2, 3, 4, 5]);
        assert!(parse_games(b"").unwrap().is_empty());
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error("1 2 3 4 7\n"),
            "1:9: `7` is not a die; a die shows 1 to 6"
        );
        assert_eq!(
            error("1 2 3 4\n"),
            "1:8: a round is five dice, and line 1 has 4"
        );
        assert_eq!(
            error("1 2 3 4 5 6\n"),
            "1:11: a round is five dice, and line 1 has 6"
        );
        assert_eq!(
            error("1 2 3 4 5\n1 1 1 1 1\n"),
            "3:1: the input ends inside the game that starts at line 1: it has 2 of its 13 rounds"
        );
        assert_eq!(
            error("1 2 3 4 0\n"),
            "1:9: `0` is not a die; a die shows 1 to 6"
        );
        assert_eq!(
            error("1 2 3 4 55\n"),
            "1:9: `55` is not a die; a die shows 1 to 6"
        );
    }
}
