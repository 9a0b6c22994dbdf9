//! A certified bound on the error of the `f64` solution of Pig, checked after the fact
//! with directed rounding.
//!
//! The argument. Write T for the game's optimality operator (each position's value from
//! its successors': the best option where the mover decides, the mean over the throw
//! otherwise), seen from the first player, so that T is monotone. The game ends with
//! probability one under any strategies, so T has exactly one fixed point, the value,
//! and for any vectors L <= T L and U >= T U, L <= value <= U (iterating T from L stays
//! above L and converges to the value; likewise from U).
//!
//! The check runs pair by pair in the solver's order, so that every hold leads to a pair
//! already certified with an interval [lo, hi]. For the pair's start values x (turn A)
//! and y (turn B) it proposes a box x in [x-, x+], y in [y-, y+] around the computed
//! values, then bounds each turn from the box: the upper value of A's turn takes, at
//! every total, the better of the options' upper ends (the upper end of a hold is 1 - lo
//! of the position held into; of a lost total, 1 - y-); the lower value follows the
//! decisions of the computed solution with the options' lower ends (a lower bound on a
//! player's best may follow any fixed play, and a fixed play moves linearly, without
//! the jumps of a best choice among near-equal options). If A's upper start value is at
//! most x+ and B's lower one at least y- (and the same for the other corner), the box is
//! mapped into itself and holds the pair's true values: these are L <= T L and T U <= U
//! restricted to the pair, the rest of the game being bounded already. Every sum and
//! quotient is rounded the safe way, exactly (see `add_up` and `divide`), so the
//! check is a proof about the real numbers, not about rounded ones.
//!
//! How wide to propose: the check measures, at the computed values, how far each turn's
//! bounds reach beyond them (the widths of the pairs held into, weighted by how likely
//! each hold is, plus rounding). A turn's start moves with the other's by a slope (the
//! chance of losing the turn total under the decisions the bound takes, which the pass
//! reports), so the widths solve a 2x2 system. A margin of a unit in the last place is
//! added; should a corner fail (a best choice that changes inside the box leans harder),
//! a Newton step on that corner's equations, with the steeper slopes seen, moves it out
//! by what is missing.

use std::cmp::Ordering;

use super::kernel::{pairs, Against, Solved, Table};
use super::rules::Rules;

/// Steps per pair before its interval falls back to [0, 1] (not met in practice: the
/// first proposal nearly always passes, a step or two settles the rest).
const TRIES: usize = 40;

/// Options closer than this count as equal when choosing the decisions that the lower
/// bounds follow.
const NEAR: f64 = 4.0 * f64::EPSILON;

/// Certified intervals around the start values of one seat.
#[derive(Clone, Debug)]
pub struct Bounds {
    lo: Vec<f64>,
    hi: Vec<f64>,
    /// Bounds on 1 - value: what holding into the position is worth to the one who holds.
    after_lo: Vec<f64>,
    after_hi: Vec<f64>,
}

impl Bounds {
    fn new(g: usize) -> Bounds {
        Bounds {
            lo: vec![0.0; g * g],
            hi: vec![1.0; g * g],
            after_lo: vec![0.0; g * g],
            after_hi: vec![1.0; g * g],
        }
    }

    fn set(&mut self, at: usize, (lo, hi): (f64, f64)) {
        self.lo[at] = lo;
        self.hi[at] = hi;
        self.after_lo[at] = add_down(1.0, -hi).max(0.0);
        self.after_hi[at] = add_up(1.0, -lo).min(1.0);
    }
}

/// The certified intervals of a solved game.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// No printed value (the first player's chance, or both of `--against`) is further
    /// than this from the true value.
    pub error_bound: f64,
    g: usize,
    seats: Vec<Bounds>,
}

/// One turn for the check.
struct Span<'a> {
    /// Bounds on the mover's chance after holding at each total.
    hold_lo: &'a [f64],
    hold_hi: &'a [f64],
    /// The computed chance after holding, to read the computed decisions off.
    hold_mid: &'a [f64],
    /// `Some(h)`: the mover holds from h on, whatever the values.
    fixed: Option<usize>,
}

fn span<'a>(
    bounds: &'a Bounds,
    t: &'a Table<f64>,
    g: usize,
    mover: usize,
    other: usize,
) -> Span<'a> {
    let r = other * g + mover..(other + 1) * g;
    Span {
        hold_lo: &bounds.after_lo[r.clone()],
        hold_hi: &bounds.after_hi[r.clone()],
        hold_mid: &t.lose[r],
        fixed: None,
    }
}

/// A bound and how fast it moves with the value of a lost total.
#[derive(Clone, Copy)]
struct Reach {
    lo: f64,
    hi: f64,
    slope_lo: f64,
    slope_hi: f64,
}

/// The buffers of the check: bounds of every total of a turn and how fast each bound
/// moves with the value of a lost total (plain floats, used only to propose), and the
/// computed decisions of each turn of the pair.
struct Check<'r> {
    rules: &'r Rules,
    n: f64,
    lo: Vec<f64>,
    hi: Vec<f64>,
    slope_lo: Vec<f64>,
    slope_hi: Vec<f64>,
    mid: Vec<f64>,
    holds: [Vec<bool>; 2],
}

impl Check<'_> {
    fn new(rules: &Rules) -> Check<'_> {
        Check {
            rules,
            n: f64::from(rules.outcomes()),
            lo: Vec::new(),
            hi: Vec::new(),
            slope_lo: Vec::new(),
            slope_hi: Vec::new(),
            mid: Vec::new(),
            holds: [Vec::new(), Vec::new()],
        }
    }

    /// The computed solution's decisions for a turn whose lost total is worth `z`, into
    /// `holds[side]` (any decisions would give sound lower bounds; these give tight ones).
    fn decide(&mut self, span: &Span, z: f64, side: usize) {
        let len = span.hold_mid.len();
        self.mid.clear();
        self.mid.resize(len, 0.0);
        let holds = &mut self.holds[side];
        holds.clear();
        holds.resize(len, false);
        for k in (0..len).rev() {
            let mut s = z;
            for &r in self.rules.gains() {
                s += if k + r >= len { 1.0 } else { self.mid[k + r] };
            }
            let roll = s / self.n;
            let hold = k > 0
                && match span.fixed {
                    Some(at) => k >= at,
                    // Within a few units in the last place holding costs the lower
                    // bound nothing that matters and keeps it flat: in near-decided
                    // positions every option is 1 to rounding, and throwing on to the
                    // goal would lean on the other turn with a slope near 1.
                    None => span.hold_mid[k] >= roll - NEAR,
                };
            holds[k] = hold;
            self.mid[k] = if hold { span.hold_mid[k] } else { roll };
        }
    }

    /// Bounds every total of a turn whose lost total is worth [z_lo, z_hi], the lower
    /// bound following `holds[side]`; returns the start's.
    fn turn(&mut self, span: &Span, side: usize, z_lo: f64, z_hi: f64) -> Reach {
        let len = span.hold_lo.len();
        for v in [
            &mut self.lo,
            &mut self.hi,
            &mut self.slope_lo,
            &mut self.slope_hi,
        ] {
            v.clear();
            v.resize(len, 0.0);
        }
        for k in (0..len).rev() {
            let roll = self.roll(k, z_lo, z_hi);
            let (lo, slope_lo) = if k > 0 && self.holds[side][k] {
                (span.hold_lo[k], 0.0)
            } else {
                (roll.lo, roll.slope_lo)
            };
            let (hi, slope_hi) = match span.fixed {
                _ if k == 0 => (roll.hi, roll.slope_hi),
                Some(at) if k >= at => (span.hold_hi[k], 0.0),
                Some(_) => (roll.hi, roll.slope_hi),
                // The best of two options is at most the better of their upper ends. On
                // a tie the flatter option says how the bound moves: near-decided
                // positions tie often, and throwing on to the goal leans with a slope
                // near 1.
                None => match roll.hi.partial_cmp(&span.hold_hi[k]) {
                    Some(Ordering::Greater) => (roll.hi, roll.slope_hi),
                    _ => (span.hold_hi[k], 0.0),
                },
            };
            self.lo[k] = lo;
            self.hi[k] = hi;
            self.slope_lo[k] = slope_lo;
            self.slope_hi[k] = slope_hi;
        }
        Reach {
            lo: self.lo[0],
            hi: self.hi[0],
            slope_lo: self.slope_lo[0],
            slope_hi: self.slope_hi[0],
        }
    }

    /// Throwing at total k, from the bounds of the totals above it.
    fn roll(&self, k: usize, z_lo: f64, z_hi: f64) -> Reach {
        let len = self.lo.len();
        let (mut sl, mut sh) = (z_lo, z_hi);
        let (mut tl, mut th) = (1.0, 1.0);
        let mut wins = 0u32;
        for &r in self.rules.gains() {
            let t = k + r;
            if t >= len {
                wins += 1;
            } else {
                sl = add_down(sl, self.lo[t]);
                sh = add_up(sh, self.hi[t]);
                tl += self.slope_lo[t];
                th += self.slope_hi[t];
            }
        }
        if wins > 0 {
            sl = add_down(sl, f64::from(wins));
            sh = add_up(sh, f64::from(wins));
        }
        let (lo, _) = divide(sl, self.n);
        let (_, hi) = divide(sh, self.n);
        // A bound held at 0 or 1 does not move.
        Reach {
            lo: lo.max(0.0),
            hi: hi.min(1.0),
            slope_lo: if lo > 0.0 { tl / self.n } else { 0.0 },
            slope_hi: if hi < 1.0 { th / self.n } else { 0.0 },
        }
    }

    /// Certifies a pair: intervals for x (turn `a`) and y (turn `b`; `None`: the pair of
    /// a score with itself, y = x), around the computed values.
    fn pair(&mut self, a: &Span, b: Option<&Span>, (x, y): (f64, f64)) -> ((f64, f64), (f64, f64)) {
        let z = |v: f64| (add_down(1.0, -v).max(0.0), add_up(1.0, -v).min(1.0));
        let side_b = usize::from(b.is_some());
        self.decide(a, 1.0 - y, 0);
        if let Some(b) = b {
            self.decide(b, 1.0 - x, 1);
        }
        let (za_lo, za_hi) = z(y);
        let ra = self.turn(a, 0, za_lo, za_hi);
        let rb = match b {
            Some(b) => {
                let (zb_lo, zb_hi) = z(x);
                self.turn(b, side_b, zb_lo, zb_hi)
            }
            None => ra,
        };
        // How far each bound reaches beyond the value at the computed point.
        let (ea_up, ea_dn) = ((ra.hi - x).max(0.0), (x - ra.lo).max(0.0));
        let (eb_up, eb_dn) = ((rb.hi - y).max(0.0), (y - rb.lo).max(0.0));
        // Corner one (x high, y low) leans with the slopes of A's upper bound and B's
        // lower one; corner two (x low, y high) with the others. Each corner is a pair
        // of numbers that must reach at least as far as the turns reach from it.
        let mut one = Corner::propose(x, y, ea_up, eb_dn, ra.slope_hi, rb.slope_lo, 1.0);
        let mut two = Corner::propose(x, y, ea_dn, eb_up, ra.slope_lo, rb.slope_hi, -1.0);
        for _ in 0..TRIES {
            if b.is_none() {
                // One position: its two corners are its two ends.
                (one.y, two.y) = (two.x, one.x);
            }
            let (x_lo, x_hi, y_lo, y_hi) = (two.x, one.x, one.y, two.y);
            let ra = self.turn(a, 0, z(y_hi).0, z(y_lo).1);
            let rb = match b {
                Some(b) => self.turn(b, side_b, z(x_hi).0, z(x_lo).1),
                None => ra,
            };
            let ok_one = ra.hi <= x_hi && rb.lo >= y_lo;
            let ok_two = ra.lo >= x_lo && rb.hi <= y_hi;
            if ok_one && ok_two {
                return ((x_lo, x_hi), (y_lo, y_hi));
            }
            if !ok_one {
                one = one.widen(ra.hi, rb.lo, ra.slope_hi, rb.slope_lo);
            }
            if !ok_two {
                two = two.widen(ra.lo, rb.hi, ra.slope_lo, rb.slope_hi);
            }
        }
        ((0.0, 1.0), (0.0, 1.0))
    }
}

/// One corner of a pair's box: A's start value pushed one way (`dir` 1: up, -1: down)
/// and B's the other, with the slopes each leans on the other by and the margin left
/// as slack.
#[derive(Clone, Copy)]
struct Corner {
    x: f64,
    y: f64,
    dir: f64,
    sx: f64,
    sy: f64,
    margin: f64,
}

impl Corner {
    /// The corner that the turns, reaching `ex` and `ey` beyond the computed values at
    /// them, would reach if they moved linearly with the other's value, plus a margin
    /// for the rounding of the check itself. The margin enters as reach, so that the
    /// 2x2 system leaves it whole as slack (added to the widths afterwards, a turn
    /// leaning on the other with a slope near 1 would keep only a sliver of it).
    /// Nothing is scaled: a factor on the widths would compound along the chains of
    /// holds, level after level.
    fn propose(x: f64, y: f64, ex: f64, ey: f64, sx: f64, sy: f64, dir: f64) -> Corner {
        let start = Corner {
            x,
            y,
            dir,
            sx,
            sy,
            margin: f64::EPSILON / 2.0,
        };
        start.step(ex, ey)
    }

    /// Moves the corner out by the reach still missing, `dx` and `dy`, through the 2x2
    /// system, then settles each side on the other's rounded value: rounding a corner
    /// outward can move it a whole unit in the last place, which near 1 is coarse
    /// beside a partner near 0.
    fn step(mut self, dx: f64, dy: f64) -> Corner {
        let (dx, dy) = (dx + self.margin, dy + self.margin);
        let det = 1.0 - self.sx * self.sy;
        if det <= 0.0 || det.is_nan() {
            self.x = if self.dir > 0.0 { 1.0 } else { 0.0 };
            self.y = 1.0 - self.x;
            return self;
        }
        let (x0, y0) = (self.x, self.y);
        let mut wy = (dy + self.sy * dx) / det;
        for _ in 0..3 {
            self.y = self.outward_y(y0, wy);
            let wx = dx + self.sx * (self.y - y0).abs();
            self.x = self.outward_x(x0, wx);
            wy = dy + self.sy * (self.x - x0).abs();
        }
        self.y = self.outward_y(y0, wy);
        self
    }

    fn outward_x(&self, from: f64, by: f64) -> f64 {
        if self.dir > 0.0 {
            add_up(from, by).min(1.0)
        } else {
            add_down(from, -by).max(0.0)
        }
    }

    fn outward_y(&self, from: f64, by: f64) -> f64 {
        if self.dir > 0.0 {
            add_down(from, -by).max(0.0)
        } else {
            add_up(from, by).min(1.0)
        }
    }

    /// After a failed check: the turns reached `rx` and `ry` from the corner, leaning
    /// with slopes `sx` and `sy` there. Moves out by what is missing (a Newton step on
    /// the corner's equations) with the steeper slopes seen, and a wider margin.
    fn widen(mut self, rx: f64, ry: f64, sx: f64, sy: f64) -> Corner {
        let missing_x = ((rx - self.x) * self.dir).max(0.0);
        let missing_y = ((self.y - ry) * self.dir).max(0.0);
        self.sx = self.sx.max(sx);
        self.sy = self.sy.max(sy);
        self.margin *= 2.0;
        self.step(missing_x, missing_y)
    }
}

/// `a + b` rounded up, exactly: the error of the rounded sum is itself a float (the
/// classic two-sum), and its sign says which way the sum was rounded; an exact sum is
/// not widened.
#[inline]
fn add_up(a: f64, b: f64) -> f64 {
    let (s, err) = two_sum(a, b);
    if s > 0.0 {
        // The next float up of a positive float is the next bit pattern.
        f64::from_bits(s.to_bits() + u64::from(err > 0.0))
    } else if err > 0.0 {
        s.next_up()
    } else {
        s
    }
}

/// `a + b` rounded down, exactly.
#[inline]
fn add_down(a: f64, b: f64) -> f64 {
    let (s, err) = two_sum(a, b);
    if s > 0.0 {
        f64::from_bits(s.to_bits() - u64::from(err < 0.0))
    } else if err < 0.0 {
        s.next_down()
    } else {
        s
    }
}

#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `s / n` for `s >= 0` and a whole `n` below 2^21, rounded down and up. The quotient
/// rounded to nearest is exact, too low or too high as `q n - s` is 0, negative or
/// positive, and that residual's sign is computed exactly: q split into halves of 26
/// and 27 bits makes both products with n exact, and the first difference is exact as
/// its terms are within a factor of 2 (Sterbenz). Tiny quotients, where the split could
/// lose bits, are widened both ways.
#[inline]
fn divide(s: f64, n: f64) -> (f64, f64) {
    let q = s / n;
    if s == 0.0 {
        return (0.0, 0.0);
    }
    if q.is_nan() || q <= 1e-290 {
        return (q.next_down(), q.next_up());
    }
    let c = 134_217_729.0 * q;
    let high = c - (c - q);
    let low = q - high;
    let d = high * n - s;
    let e = low * n;
    // q n - s = d + e: above 0 when d > -e.
    let bits = q.to_bits();
    (
        f64::from_bits(bits - u64::from(d > -e)),
        f64::from_bits(bits + u64::from(d < -e)),
    )
}

/// Certifies the solution of the game with both players playing best.
pub fn certify(solved: &Solved<f64>) -> Certificate {
    let rules = solved.rules();
    let g = rules.g();
    let t: &Table<f64> = &solved.table;
    let mut bounds = Bounds::new(g);
    let mut c = Check::new(rules);
    for (i, j) in pairs(g, false) {
        let (ij, ji) = (i * g + j, j * g + i);
        let (xi, yi) = {
            let a = span(&bounds, t, g, i, j);
            let b = span(&bounds, t, g, j, i);
            c.pair(&a, (i != j).then_some(&b), (t.win[ij], t.win[ji]))
        };
        bounds.set(ij, xi);
        bounds.set(ji, yi);
    }
    let v = t.win[0];
    Certificate {
        error_bound: (bounds.hi[0] - v).max(v - bounds.lo[0]),
        g,
        seats: vec![bounds],
    }
}

/// Certifies the game of a best player against a fixed "hold at h" opponent: the bound
/// covers both printed chances (moving first and moving second).
pub fn certify_against(solved: &Against<f64>) -> Certificate {
    let rules = solved.rules();
    let g = rules.g();
    let h = solved.hold_at as usize;
    let (best, fixed) = (&solved.best, &solved.fixed);
    let mut bb = Bounds::new(g);
    let mut fb = Bounds::new(g);
    let mut c = Check::new(rules);
    for (a, b) in pairs(g, true) {
        let (ab, ba) = (a * g + b, b * g + a);
        let (xi, yi) = {
            let turn_a = span(&fb, fixed, g, a, b);
            let turn_b = Span {
                fixed: Some(h),
                ..span(&bb, best, g, b, a)
            };
            c.pair(&turn_a, Some(&turn_b), (best.win[ab], fixed.win[ba]))
        };
        bb.set(ab, xi);
        fb.set(ba, yi);
    }
    let first = best.win[0];
    let second = fixed.lose[0];
    let e1 = (bb.hi[0] - first).max(first - bb.lo[0]);
    let e2 = (fb.after_hi[0] - second).max(second - fb.after_lo[0]);
    Certificate {
        error_bound: e1.max(e2),
        g,
        seats: vec![bb, fb],
    }
}

impl Certificate {
    /// The certified interval of the start value with banked `me` against `opponent`
    /// (both players best).
    pub fn interval(&self, me: usize, opponent: usize) -> (f64, f64) {
        let b = &self.seats[0];
        (b.lo[me * self.g + opponent], b.hi[me * self.g + opponent])
    }

    /// Bounds every total of the turn with banked `me` against `opponent`; returns the
    /// check with the turn's bounds in place, and the bounds of a lost total's value.
    fn turn_bounds<'r>(
        &self,
        solved: &'r Solved<f64>,
        me: usize,
        opponent: usize,
    ) -> (Check<'r>, f64, f64) {
        let g = self.g;
        let b = &self.seats[0];
        let mut c = Check::new(solved.rules());
        let s = span(b, &solved.table, g, me, opponent);
        let back = opponent * g + me;
        c.decide(&s, solved.table.lose[back], 0);
        c.turn(&s, 0, b.after_lo[back], b.after_hi[back]);
        (c, b.after_lo[back], b.after_hi[back])
    }

    /// A bound on the error of both options of a position as [`Solved::options`] gives
    /// them (both players best); `None` outside the positions.
    pub fn options_error(
        &self,
        solved: &Solved<f64>,
        me: usize,
        opponent: usize,
        turn: usize,
    ) -> Option<f64> {
        let options = solved.options(me, opponent, turn)?;
        let (c, z_lo, z_hi) = self.turn_bounds(solved, me, opponent);
        let roll = c.roll(turn, z_lo, z_hi);
        let b = &self.seats[0];
        let at = opponent * self.g + me + turn;
        let e_roll = (roll.hi - options.roll).max(options.roll - roll.lo);
        let e_hold = (b.after_hi[at] - options.hold).max(options.hold - b.after_lo[at]);
        Some(e_roll.max(e_hold))
    }

    /// The decisions of the `f64` policy that the certified bounds cannot settle:
    /// `(me, opponent, turn)` where the intervals of throwing and holding overlap, so
    /// that the two options might be in the other order. Everywhere else the order of
    /// the options, and so the decision, is proven.
    pub fn uncertain_decisions(&self, solved: &Solved<f64>) -> Vec<(usize, usize, usize)> {
        let rules = solved.rules();
        let g = self.g;
        let b = &self.seats[0];
        let mut out = Vec::new();
        for me in 0..g {
            for opponent in 0..g {
                let (c, z_lo, z_hi) = self.turn_bounds(solved, me, opponent);
                for k in 1..g - me {
                    if !rules.reachable(k as u64) {
                        continue;
                    }
                    let roll = c.roll(k, z_lo, z_hi);
                    let at = opponent * g + me + k;
                    if roll.lo <= b.after_hi[at] && b.after_lo[at] <= roll.hi {
                        out.push((me, opponent, k));
                    }
                }
            }
        }
        out
    }
}
