//! The judge's input: games of thirteen rounds of five dice until the end of the input,
//! as whitespace-separated tokens in any layout (the sample puts a round on a line, but
//! the judge reads the dice one after another).

use super::score::Round;
use crate::text::{Cursor, ParseError};

/// Rounds in a game.
pub const ROUNDS: usize = 13;
/// Dice in a round.
const DICE: usize = 5;
/// Dice in a game.
const GAME_DICE: usize = ROUNDS * DICE;

/// A game: thirteen rounds in order.
pub type Game = [Round; ROUNDS];

/// Reads every game of the input. Nothing is returned unless the whole input is valid.
pub fn parse_games(input: &[u8]) -> Result<Vec<Game>, ParseError> {
    let mut cursor = Cursor::new(input);
    let mut games = Vec::new();
    while let Some(first) = cursor.peek() {
        let mut game = [[0u8; DICE]; ROUNDS];
        for i in 0..GAME_DICE {
            let token = cursor.expect(|| {
                format!(
                    "the input ends inside the game that starts at line {}: a game needs \
                     {GAME_DICE} dice, the input ends after {i}",
                    first.line
                )
            })?;
            game[i / DICE][i % DICE] = match token.bytes {
                [d @ b'1'..=b'6'] => d - b'0',
                _ => {
                    return Err(token.error(format!(
                        "{} is not a die; a die shows 1 to 6",
                        token.shown()
                    )))
                }
            };
        }
        games.push(game);
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
    fn any_layout_reads_the_same() {
        let one = "1 2 3 4 5\n6 6 6 6 6\n".repeat(6) + "3 3 3 4 4\n";
        let two = format!("{one}{one}");
        let sample = parse_games(two.as_bytes()).unwrap();
        let flat: Vec<&str> = two.split_whitespace().collect();
        assert_eq!(parse_games(flat.join(" ").as_bytes()).unwrap(), sample);
        assert_eq!(parse_games(flat.join("\r\n\t").as_bytes()).unwrap(), sample);
        let sevens: Vec<String> = flat.chunks(7).map(|c| c.join("  ")).collect();
        assert_eq!(parse_games(sevens.join("\n\n").as_bytes()).unwrap(), sample);
    }

    #[test]
    fn precise_errors() {
        assert_eq!(
            error("1 2 3 4 7\n"),
            "1:9: `7` is not a die; a die shows 1 to 6"
        );
        assert_eq!(
            error("1 2 3 4\n"),
            "2:1: the input ends inside the game that starts at line 1: a game needs 65 dice, \
             the input ends after 4"
        );
        let short = format!("{}1 1 1", "1 2 3 4 5\n".repeat(13 + 12));
        assert_eq!(
            error(&short),
            "26:6: the input ends inside the game that starts at line 14: a game needs 65 \
             dice, the input ends after 63"
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
