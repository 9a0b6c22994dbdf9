//! Which worker owns a state: a hash of some of its variables, chosen so that most
//! transitions stay on one worker.
//!
//! A transition crosses to another worker only if it changes a variable of the key, so
//! the key is made of the variables that transitions change least, as few as give the
//! workers enough distinct values to share: in Pig, both banked scores, which change
//! only when a turn banks, so that each pair of scores (a strongly connected component:
//! the turn passes back and forth within it) lies on one worker. The variables' shares
//! of changes are counted on the first states of a breadth-first exploration, the same
//! on every process (nothing is exchanged to choose). The user may name the key, or ask
//! for the hash of the whole state.

use alea_prism::explore::{Compiled, Expansion, StateTest};
use alea_prism::program::Program;
use hashbrown::HashSet;

/// States explored to choose the key: a few milliseconds.
const SAMPLE: usize = 20_000;
/// Distinct values of the key in the sample per worker before a slower variable is
/// enough: the workers' shares then differ little.
const VALUES_PER_WORKER: usize = 32;

/// How the states are split among the workers.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Locality {
    /// A key chosen from a sample of the model.
    #[default]
    Auto,
    /// A hash of the whole state: balanced, but nearly every transition crosses.
    Hash,
    /// A hash of the variables named.
    Vars(Vec<String>),
}

/// Which worker owns a state: the bits of the key's variables, or all.
#[derive(Clone, Debug)]
pub struct Owner {
    /// Each word's bits of the key; `None`: the whole state.
    bits: Option<Vec<u64>>,
    /// The key's variables, by name, as reported.
    pub key: Vec<String>,
}

impl Owner {
    /// The worker of `peers` that owns `state`, whose hash is `h`.
    #[inline]
    pub fn of(&self, state: &[u64], h: u64, peers: usize) -> usize {
        let h = match &self.bits {
            None => h,
            Some(bits) => {
                let mut key = [0u64; 8];
                if state.len() <= key.len() {
                    for (k, (&w, &b)) in key.iter_mut().zip(state.iter().zip(bits)) {
                        *k = w & b;
                    }
                    Compiled::hash(&key[..state.len()])
                } else {
                    let key: Vec<u64> = state.iter().zip(bits).map(|(&w, &b)| w & b).collect();
                    Compiled::hash(&key)
                }
            }
        };
        crate::explore::owner(h, peers)
    }
}

/// The owner function for `workers` workers; an unknown variable's name is an error.
pub fn owner(
    locality: &Locality,
    program: &Program,
    compiled: &Compiled,
    absorbing: Option<&StateTest>,
    workers: usize,
) -> Result<Owner, String> {
    let bits = compiled.variable_bits();
    let names: Vec<&str> = program.variables.iter().map(|v| v.name.as_str()).collect();
    let chosen: Vec<usize> = match locality {
        Locality::Hash => {
            return Ok(Owner {
                bits: None,
                key: Vec::new(),
            })
        }
        Locality::Vars(vars) => vars
            .iter()
            .map(|v| {
                names.iter().position(|n| n == v).ok_or_else(|| {
                    format!(
                        "--partition names `{v}`, which is no variable of the model (its \
                         variables: {})",
                        names.join(", ")
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Locality::Auto => choose(program, compiled, absorbing, &bits, workers),
    };
    if chosen.is_empty() {
        return Ok(Owner {
            bits: None,
            key: Vec::new(),
        });
    }
    let mut mask = vec![0u64; compiled.words()];
    for &v in &chosen {
        for (m, b) in mask.iter_mut().zip(&bits[v]) {
            *m |= b;
        }
    }
    Ok(Owner {
        bits: Some(mask),
        key: chosen.iter().map(|&v| names[v].to_string()).collect(),
    })
}

/// The variables of the key: the least changed first, until the sample's states take
/// enough distinct values of them (every variable, if need be: none then, the hash of
/// the whole state).
fn choose(
    program: &Program,
    compiled: &Compiled,
    absorbing: Option<&StateTest>,
    bits: &[Vec<u64>],
    workers: usize,
) -> Vec<usize> {
    let words = compiled.words();
    let mut stepper = compiled.stepper(program);
    let mut expansion = Expansion::default();
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut queue: Vec<Vec<u64>> = Vec::new();
    for s in compiled.initial().chunks_exact(words) {
        if seen.insert(s.to_vec()) {
            queue.push(s.to_vec());
        }
    }
    let mut changes = vec![0u64; bits.len()];
    let mut transitions = 0u64;
    let mut next = 0;
    while next < queue.len() && next < SAMPLE {
        let state = queue[next].clone();
        next += 1;
        // A state left unexpanded, or one that fails, adds nothing to the sample; the
        // exploration reports the failure.
        let stays = absorbing.is_some_and(|test| {
            stepper
                .holds(
                    test,
                    &state,
                    next <= compiled.initial().len() / words,
                    false,
                )
                .unwrap_or(true)
        });
        if stays || stepper.expand(&state, &mut expansion).is_err() {
            continue;
        }
        for target in expansion.targets.chunks_exact(words) {
            transitions += 1;
            for (v, b) in bits.iter().enumerate() {
                if (0..words).any(|w| (state[w] ^ target[w]) & b[w] != 0) {
                    changes[v] += 1;
                }
            }
            if queue.len() < 4 * SAMPLE && seen.insert(target.to_vec()) {
                queue.push(target.to_vec());
            }
        }
    }
    if transitions == 0 {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..bits.len()).collect();
    order.sort_by_key(|&v| (changes[v], v));
    let sample = &queue[..next];
    let mut chosen = Vec::new();
    let mut mask = vec![0u64; words];
    for v in order {
        chosen.push(v);
        for (m, b) in mask.iter_mut().zip(&bits[v]) {
            *m |= b;
        }
        let distinct: HashSet<Vec<u64>> = sample
            .iter()
            .map(|s| s.iter().zip(&mask).map(|(&w, &m)| w & m).collect())
            .collect();
        if distinct.len() >= VALUES_PER_WORKER * workers {
            chosen.sort_unstable();
            return chosen;
        }
    }
    Vec::new()
}
