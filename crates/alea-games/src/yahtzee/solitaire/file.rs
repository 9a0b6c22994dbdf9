//! A solved table as bytes, to save it once and read advice from it later.
//!
//! Layout, little-endian: a 32-byte header, then the mean and the second moment (two
//! f64) of every reachable position, in the order of [`reachable_positions`]:
//!
//! | bytes | field |
//! |-------|-------|
//! | 0..8   | `alea-ytz`, the mark of the format |
//! | 8..12  | format version, 1 |
//! | 12..16 | rules: 0 free-joker, 1 forced-joker, 2 no-joker, 3 no-bonus |
//! | 16..24 | number of positions |
//! | 24..28 | CRC-32 of bytes 0..24 and of everything after the header |
//! | 28..32 | zero |
//!
//! Anything that does not match, to the last bit, is refused.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::rules::Rules;
use super::solve::{reachable_positions, Moments, Table, TABLE_LEN};

const MARK: &[u8; 8] = b"alea-ytz";
const VERSION: u32 = 1;
const HEADER: usize = 32;
const ENTRY: usize = 16;

/// Why bytes are not a table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("not an alea Yahtzee table (it does not start with `alea-ytz`)")]
    Foreign,
    #[error("a table of format version {0}; this alea reads version {VERSION}")]
    Version(u32),
    #[error("damaged table: {0}")]
    Damaged(String),
}

fn rules_code(rules: Rules) -> u32 {
    Rules::ALL
        .iter()
        .position(|&r| r == rules)
        .expect("every rule set is listed") as u32
}

fn checksum(header: &[u8], body: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&header[..24]);
    h.update(body);
    h.finalize()
}

/// The size of a table file, in bytes.
pub fn file_len() -> usize {
    HEADER + reachable_positions().len() * ENTRY
}

/// Whether bytes start like a table file (to refuse a foreign file before reading it
/// all).
pub fn starts_like_a_table(first: &[u8]) -> bool {
    first.starts_with(MARK)
}

/// Why a table file cannot be read: the file itself, or what it holds.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Reads the table saved in the file at `path`, refusing a foreign or wrongly sized
/// file before reading it all.
pub fn read_table(path: &Path) -> Result<Table, ReadError> {
    let mut file = File::open(path)?;
    let mut mark = Vec::new();
    (&mut file).take(8).read_to_end(&mut mark)?;
    if !starts_like_a_table(&mark) {
        return Err(TableError::Foreign.into());
    }
    let len = file.metadata()?.len();
    if len != file_len() as u64 {
        return Err(
            TableError::Damaged(format!("{len} bytes; a table is {} bytes", file_len())).into(),
        );
    }
    let mut bytes = mark;
    file.read_to_end(&mut bytes)?;
    Ok(Table::from_bytes(&bytes)?)
}

impl Table {
    /// The table as bytes, header and checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let positions = reachable_positions();
        let mut bytes = vec![0u8; HEADER];
        bytes.reserve(positions.len() * ENTRY);
        bytes[..8].copy_from_slice(MARK);
        bytes[8..12].copy_from_slice(&VERSION.to_le_bytes());
        bytes[12..16].copy_from_slice(&rules_code(self.rules).to_le_bytes());
        bytes[16..24].copy_from_slice(&(positions.len() as u64).to_le_bytes());
        for p in positions {
            let m = self.get(p);
            bytes.extend_from_slice(&m.mean.to_le_bytes());
            bytes.extend_from_slice(&m.square.to_le_bytes());
        }
        let sum = checksum(&bytes[..HEADER], &bytes[HEADER..]);
        bytes[24..28].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads a table written by [`Table::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TableError> {
        if bytes.len() < 8 || &bytes[..8] != MARK {
            return Err(TableError::Foreign);
        }
        if bytes.len() < HEADER {
            return Err(TableError::Damaged(format!(
                "{} bytes, shorter than the {HEADER}-byte header",
                bytes.len()
            )));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(TableError::Version(version));
        }
        let positions = reachable_positions();
        let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let expected_len = HEADER + positions.len() * ENTRY;
        if bytes.len() != expected_len {
            return Err(TableError::Damaged(format!(
                "{} bytes; a table is {expected_len} bytes",
                bytes.len()
            )));
        }
        if word(24) != checksum(&bytes[..HEADER], &bytes[HEADER..]) || word(28) != 0 {
            return Err(TableError::Damaged(
                "the checksum does not match the contents".into(),
            ));
        }
        let rules = *Rules::ALL
            .get(word(12) as usize)
            .ok_or_else(|| TableError::Damaged(format!("unknown rules code {}", word(12))))?;
        if count != positions.len() as u64 {
            return Err(TableError::Damaged(format!(
                "{count} positions; a table has {}",
                positions.len()
            )));
        }
        let mut values = vec![Moments::default(); TABLE_LEN];
        for (p, entry) in positions.iter().zip(bytes[HEADER..].chunks_exact(ENTRY)) {
            let f = |at: usize| f64::from_le_bytes(entry[at..at + 8].try_into().expect("8 bytes"));
            let m = Moments {
                mean: f(0),
                square: f(8),
            };
            if !(m.mean.is_finite() && m.square.is_finite() && m.mean >= 0.0) {
                return Err(TableError::Damaged(format!(
                    "position {:?} holds {m:?}, not an expected score",
                    p
                )));
            }
            values[p.index()] = m;
        }
        Ok(Table {
            rules,
            values,
            positions: positions.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yahtzee::solitaire::solve::Position;

    /// A table with made-up values: the format does not care what they are.
    fn table() -> Table {
        let mut values = vec![Moments::default(); TABLE_LEN];
        let positions = reachable_positions();
        for (i, p) in positions.iter().enumerate() {
            values[p.index()] = Moments {
                mean: i as f64 / 7.0,
                square: i as f64,
            };
        }
        Table {
            rules: Rules::NoJoker,
            values,
            positions: positions.len(),
        }
    }

    #[test]
    fn a_table_reads_back_as_written() {
        let t = table();
        let back = Table::from_bytes(&t.to_bytes()).unwrap();
        assert_eq!(back.rules, Rules::NoJoker);
        assert_eq!(back.positions, t.positions);
        assert!(back.values == t.values);
        let p = Position {
            filled: 0b1_0000_0000_0111,
            upper: 6,
            yahtzee_50: false,
        };
        assert_eq!(back.get(p), t.get(p));
    }

    #[test]
    fn any_change_is_refused() {
        let bytes = table().to_bytes();
        assert_eq!(
            Table::from_bytes(b"hello world").err(),
            Some(TableError::Foreign)
        );
        assert_eq!(Table::from_bytes(&[]).err(), Some(TableError::Foreign));
        let mut newer = bytes.clone();
        newer[8] = 2;
        assert_eq!(
            Table::from_bytes(&newer).err(),
            Some(TableError::Version(2))
        );
        for at in [12, 20, 24, 31, HEADER, HEADER + 1000, bytes.len() - 1] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            assert!(
                matches!(Table::from_bytes(&flipped), Err(TableError::Damaged(_))),
                "a flipped bit at byte {at} went unnoticed"
            );
        }
        assert!(matches!(
            Table::from_bytes(&bytes[..bytes.len() - 16]),
            Err(TableError::Damaged(_))
        ));
        assert!(matches!(
            Table::from_bytes(&bytes[..20]),
            Err(TableError::Damaged(_))
        ));
    }
}
