//! Numbers in comments, read straight from the bytes.
//!
//! Every TCEC move comment holds about a dozen numbers; `str::parse` costs a
//! UTF-8 view, a generic dispatch and, for floats, the full decimal
//! machinery. These read the common shapes by hand and return exactly what
//! `str::parse` returns: integers in full (same signs, same overflow
//! rejections), floats only when the result is exact by construction (a
//! short decimal: an integer mantissa divided by an exact power of ten is
//! correctly rounded), anything else through `str::parse` itself.

/// `str::parse::<i64>`: an optional sign, then ASCII digits.
///
/// ```
/// use evallab_pgn::comment::num::parse_i64;
/// assert_eq!(parse_i64(b"+42"), Some(42));
/// assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
/// assert_eq!(parse_i64(b"9223372036854775808"), None);
/// assert_eq!(parse_i64(b"4 2"), None);
/// ```
pub fn parse_i64(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let n = parse_u64(digits)?;
    if neg {
        // 2^63 is i64::MIN, which wraps onto itself.
        (n <= 1 << 63).then(|| (n as i64).wrapping_neg())
    } else {
        i64::try_from(n).ok()
    }
}

/// `str::parse::<i16>`.
pub fn parse_i16(b: &[u8]) -> Option<i16> {
    parse_i64(b).and_then(|n| i16::try_from(n).ok())
}

/// One or more ASCII digits, without overflow (no sign).
pub fn parse_u64(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    let mut n = 0u64;
    for &d in digits {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(n)
}

/// A short decimal `[+-]digits[.digits]`: (negative, mantissa, digits after
/// the point). `None` for any other shape.
fn decimal(b: &[u8]) -> Option<(bool, u64, usize)> {
    let (neg, rest) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let (int, frac) = match rest.iter().position(|&c| c == b'.') {
        Some(dot) => (&rest[..dot], &rest[dot + 1..]),
        None => (rest, &[][..]),
    };
    // At most 19 digits: the mantissa cannot overflow.
    if int.is_empty() || int.len() + frac.len() > 19 || (frac.is_empty() && int.len() < rest.len())
    {
        return None;
    }
    let mut m = 0u64;
    for &d in int.iter().chain(frac) {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        m = m * 10 + u64::from(d);
    }
    Some((neg, m, frac.len()))
}

/// Powers of ten that f64 holds exactly.
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten that f32 holds exactly.
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// `str::parse::<f64>`, the same bits.
///
/// ```
/// use evallab_pgn::comment::num::parse_f64;
/// assert_eq!(parse_f64("-1.07"), Some(-1.07));
/// assert_eq!(parse_f64("1e3"), Some(1000.0));
/// assert_eq!(parse_f64("x"), None);
/// ```
pub fn parse_f64(s: &str) -> Option<f64> {
    match decimal(s.as_bytes()) {
        // Both operands exact: the quotient is correctly rounded.
        Some((neg, m, k)) if m < 1 << 53 => {
            let x = m as f64 / POW10_F64[k];
            Some(if neg { -x } else { x })
        }
        _ => s.parse().ok(),
    }
}

/// `str::parse::<f32>`, the same bits.
pub fn parse_f32(s: &str) -> Option<f32> {
    match decimal(s.as_bytes()) {
        Some((neg, m, k)) if m < 1 << 24 && k < POW10_F32.len() => {
            let x = m as f32 / POW10_F32[k];
            Some(if neg { -x } else { x })
        }
        _ => s.parse().ok(),
    }
}

/// The f32 that the decimal `s` is, when an f32 keeps its value: read back
/// as that f32's shortest decimal it is `s`'s value again. `99999999` (an
/// f32 100000000) and `0.123456789` are not: an f32 column would bend them,
/// so they keep their text.
///
/// ```
/// use evallab_pgn::comment::num::exact_f32;
/// assert_eq!(exact_f32("42.0"), Some(42.0));
/// assert_eq!(exact_f32("16777216"), Some(16777216.0));
/// assert_eq!(exact_f32("99999999"), None);
/// assert_eq!(exact_f32("1e39"), None);
/// ```
pub fn exact_f32(s: &str) -> Option<f32> {
    let x = parse_f32(s).filter(|x| x.is_finite())?;
    match decimal(s.as_bytes()) {
        // Six significant digits or fewer: an f32 tells every such decimal
        // apart (FLT_DIG), the common case, without formatting.
        Some((_, m, _)) if m < 1_000_000 => Some(x),
        _ => (x.to_string().parse::<f64>().ok() == parse_f64(s)).then_some(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shapes that comments hold, and the edges of every rule above.
    const CASES: &[&str] = &[
        "",
        "+",
        "-",
        ".",
        "+.",
        "-.",
        "0",
        "-0",
        "+0",
        "00",
        "007",
        "1",
        "-1",
        "42",
        "1.07",
        "-1.07",
        "+0.35",
        "0.0",
        "-0.00",
        "42.0",
        "999.99",
        "21474836.48",
        "-150.00",
        ".5",
        "5.",
        "-.5",
        "1e3",
        "1E-2",
        "inf",
        "-inf",
        "NaN",
        "infinity",
        "1_000",
        " 1",
        "1 ",
        "1.2.3",
        "1..2",
        "--1",
        "+-1",
        "0x10",
        "١",
        "32767",
        "32768",
        "-32768",
        "-32769",
        "2147483647",
        "-2147483648",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999",
        "0000000000000000000000000001",
        "9007199254740993",
        "9007199254740993.0",
        "0.1000000000000000055511151231257827",
        "16777217",
        "16777217.0",
        "1677721.7",
        "0.30000001",
        "1234567890.123456789",
        "12345678901234567890",
        "1.0000000000000000001",
        "0.0000000001",
        "0.00000000001",
        "3.4028235e38",
        "3.5e38",
        "1e400",
        "123456789.1",
        "8388609.5",
    ];

    #[test]
    fn integers_match_str_parse() {
        for s in CASES {
            assert_eq!(parse_i64(s.as_bytes()), s.parse().ok(), "i64 {s:?}");
            assert_eq!(parse_i16(s.as_bytes()), s.parse().ok(), "i16 {s:?}");
        }
    }

    #[test]
    fn floats_match_str_parse_bit_for_bit() {
        let bits64 = |x: Option<f64>| x.map(f64::to_bits);
        let bits32 = |x: Option<f32>| x.map(f32::to_bits);
        let mut cases: Vec<String> = CASES.iter().map(|s| s.to_string()).collect();
        // Every two-decimal eval from -20.00 to 20.00, and hash/ponder percentages.
        cases.extend((-2000..=2000).map(|n| format!("{:.2}", f64::from(n) / 100.0)));
        cases.extend((0..=1000).map(|n| format!("{}.{}", n / 10, n % 10)));
        for s in &cases {
            assert_eq!(bits64(parse_f64(s)), bits64(s.parse().ok()), "f64 {s:?}");
            assert_eq!(bits32(parse_f32(s)), bits32(s.parse().ok()), "f32 {s:?}");
        }
    }
}
