//! Probabilities written with six decimals, byte for byte as `format!("{p:.6}")` writes
//! them, without the formatting machinery: the judge's answer is thousands of such lines,
//! and the general formatter is a good part of the time left once the deals are solved.

/// Appends `p` with six decimals and a newline, exactly as `writeln!("{p:.6}")`.
pub fn push_fixed6_line(out: &mut Vec<u8>, p: f64) {
    let bits = p.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // Only what a probability can be; anything else (negative, above 1, not a number)
    // takes the general route.
    if bits >> 63 != 0 || p > 1.0 || exponent == 0x7ff {
        out.extend_from_slice(format!("{p:.6}\n").as_bytes());
        return;
    }
    // p = m * 2^-k exactly, with m below 2^53.
    let (m, k) = if exponent == 0 {
        (fraction, 1074)
    } else {
        (fraction | 1 << 52, 1075 - exponent)
    };
    // p * 10^6 = m * 10^6 / 2^k, rounded half to even on the exact value, as the
    // standard formatter does. Below 2^-100, p * 10^6 is far under a half.
    let millionths = if k > 100 {
        0
    } else {
        let scaled = u128::from(m) * 1_000_000;
        let whole = scaled >> k;
        let rest = scaled - (whole << k);
        let half = 1u128 << (k - 1);
        if rest > half || (rest == half && whole & 1 == 1) {
            whole + 1
        } else {
            whole
        }
    } as u32;
    let (units, decimals) = (millionths / 1_000_000, millionths % 1_000_000);
    let mut text = *b"0.000000\n";
    text[0] = b'0' + units as u8;
    let mut d = decimals;
    for place in (2..8).rev() {
        text[place] = b'0' + (d % 10) as u8;
        d /= 10;
    }
    out.extend_from_slice(&text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn standard(p: f64) -> String {
        format!("{p:.6}\n")
    }

    fn fast(p: f64) -> String {
        let mut out = Vec::new();
        push_fixed6_line(&mut out, p);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn edges_and_ties_are_written_as_the_standard_formatter_writes_them() {
        let mut cases = vec![
            0.0,
            1.0,
            0.5,
            f64::MIN_POSITIVE,
            5e-324,
            0.000_000_5,
            0.000_001_5,
            0.000_002_5,
            0.999_999_5,
            0.999_999_499_999_999_9,
            1.0 - f64::EPSILON,
            -0.0,
            -0.25,
            1.5,
            f64::NAN,
            f64::INFINITY,
        ];
        // Exact ties: odd multiples of 2^-7 are (2n+1)/2 millionths times 5^6.
        for k in (1..256).step_by(2) {
            cases.push(f64::from(k) / 128.0 / 2.0);
            cases.push(f64::from(k) / 64.0 / 2.0);
        }
        // Values a rounding step away from a half millionth.
        for n in 0..2000u32 {
            let half = (f64::from(n) + 0.5) / 1e6;
            cases.extend([half, half.next_up(), half.next_down()]);
        }
        for p in cases {
            assert_eq!(fast(p), standard(p), "{p:e}");
        }
    }

    proptest! {
        #[test]
        fn any_probability_is_written_as_the_standard_formatter_writes_it(
            p in 0.0f64..=1.0,
            bits in 0u64..0x3ff0_0000_0000_0001,
        ) {
            prop_assert_eq!(fast(p), standard(p));
            let q = f64::from_bits(bits);
            prop_assert_eq!(fast(q), standard(q));
        }
    }
}
