//! A value column's count, mean and exact median per group, in memory that
//! does not grow with the rows: the rows are fed once to count and sum, then
//! again, pass after pass, until the median is found by selection.
//!
//! - The mean is polars' own (its `KahanSum` in row order, over the count),
//!   so that rows fed chunk after chunk give the bits one `group_by` gave.
//! - The median: a group keeps its first [`FEW`] values as they are; past
//!   them it counts its values in a histogram of their order-preserving
//!   bits, at most [`BUCKETS`] buckets as narrow as that allows. The bucket
//!   that holds the wanted rank is searched on the next pass the same way,
//!   or, once it holds at most [`COLLECT`] values, its values are collected
//!   and sorted. Memory holds a few counters or values per group, however
//!   many rows it has.

use polars::prelude::PlHashMap as HashMap;

/// Values a group keeps as they are on the first pass, before it counts
/// them in a histogram instead (8 bytes each).
const FEW: usize = 128;
/// Values of a narrowed range collected as they are on a later pass (8
/// bytes each): at this bound a group of up to some 500 k moves needs two
/// passes (at 1,024 it needed three, a third more time on the archive).
const COLLECT: u64 = 16_384;
/// A histogram's buckets at most: past that, two neighbours merge (each
/// bucket twice as wide), so that a group's counters stay this few however
/// many values it has.
const BUCKETS: usize = 128;

/// polars-utils' `KahanSum` (0.55), which polars' group mean folds the
/// group's values into in row order.
#[derive(Debug, Default, Clone, Copy)]
struct Kahan {
    sum: f64,
    err: f64,
}

impl Kahan {
    fn add(&mut self, v: f64) {
        let y = v - self.err;
        let sum = self.sum + y;
        let err = (sum - self.sum) - y;
        self.sum = sum;
        if err.is_finite() {
            self.err = err;
        }
    }
}

/// The bits of a float in its order (−0.0 before 0.0).
pub fn key(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

/// The float of [`key`]'s bits.
pub fn unkey(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// The values of the keys `lo..=hi` counted per bucket
/// (`(key − lo) >> shift`), the buckets as narrow as [`BUCKETS`] of them allow.
#[derive(Debug)]
struct Histogram {
    lo: u64,
    hi: u64,
    shift: u32,
    counts: HashMap<u64, u64>,
}

impl Histogram {
    fn new(lo: u64, hi: u64) -> Histogram {
        Histogram {
            lo,
            hi,
            shift: 0,
            counts: HashMap::default(),
        }
    }

    fn add(&mut self, k: u64) {
        if k < self.lo || k > self.hi {
            return;
        }
        *self.counts.entry((k - self.lo) >> self.shift).or_default() += 1;
        while self.counts.len() > BUCKETS {
            self.shift += 1;
            let counts = std::mem::take(&mut self.counts);
            for (b, n) in counts {
                *self.counts.entry(b >> 1).or_default() += n;
            }
        }
    }

    /// Where rank `r` (0-based, within the histogram) lies: its key when its
    /// bucket is one key wide, else that bucket to search next.
    fn find(&self, r: u64) -> Option<Target> {
        let (b, rank, n) = nth(self.counts.iter().map(|(&b, &n)| (b, n)), r)?;
        let lo = self.lo + (b << self.shift);
        if self.shift == 0 {
            return Some(Target::Found(lo));
        }
        let hi = self.hi.min(lo.saturating_add((1u64 << self.shift) - 1));
        Some(if n <= COLLECT {
            Target::Collect {
                lo,
                hi,
                rank,
                keys: Vec::new(),
            }
        } else {
            Target::Count {
                counts: Histogram::new(lo, hi),
                rank,
            }
        })
    }
}

/// The entry holding rank `r` of `(entry, count)` pairs in entry order,
/// `r`'s rank within it and its count; `None` when they hold at most `r`.
fn nth(counts: impl Iterator<Item = (u64, u64)>, r: u64) -> Option<(u64, u64, u64)> {
    let mut counts: Vec<(u64, u64)> = counts.collect();
    counts.sort_unstable();
    let mut below = 0;
    counts.into_iter().find_map(|(k, n)| {
        below += n;
        (r < below).then_some((k, r - (below - n), n))
    })
}

/// Rank `r` of keys.
fn nth_key(keys: &mut [u64], r: u64) -> Option<Target> {
    keys.sort_unstable();
    keys.get(r as usize).map(|&k| Target::Found(k))
}

/// One rank of a median being searched for.
#[derive(Debug)]
enum Target {
    Found(u64),
    /// The rank-th of the keys `lo..=hi`, which are few: collected.
    Collect {
        lo: u64,
        hi: u64,
        rank: u64,
        keys: Vec<u64>,
    },
    /// The rank-th of a histogram's keys: its bucket to be searched next.
    Count {
        counts: Histogram,
        rank: u64,
    },
}

impl Target {
    fn add(&mut self, k: u64) {
        match self {
            Target::Found(_) => {}
            Target::Collect { lo, hi, keys, .. } => {
                if *lo <= k && k <= *hi {
                    keys.push(k);
                }
            }
            Target::Count { counts, .. } => counts.add(k),
        }
    }

    /// After a pass: found, or narrowed.
    fn next(self) -> Option<Target> {
        match self {
            Target::Found(_) => Some(self),
            Target::Collect { rank, mut keys, .. } => nth_key(&mut keys, rank),
            Target::Count { counts, rank } => counts.find(rank),
        }
    }
}

/// The first pass's values of a group: as they are while they are few, then
/// in a histogram of the whole range of keys.
#[derive(Debug)]
enum First {
    Few(Vec<u64>),
    Many(Histogram),
}

/// A group's value column: its non-null values counted and summed on the
/// first pass, its median searched on the later ones.
#[derive(Debug)]
pub struct Stat {
    n: u64,
    sum: Kahan,
    first: Option<First>,
    targets: Vec<Target>,
}

impl Default for Stat {
    fn default() -> Stat {
        Stat {
            n: 0,
            sum: Kahan::default(),
            first: Some(First::Few(Vec::new())),
            targets: Vec::new(),
        }
    }
}

/// The rows changed between two passes (a count no longer adds up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed;

impl Stat {
    /// A row's value, on the first pass (`None`: null, not counted).
    pub fn first(&mut self, v: Option<f64>) {
        let Some(v) = v else { return };
        self.n += 1;
        self.sum.add(v);
        match &mut self.first {
            Some(First::Few(keys)) if keys.len() < FEW => keys.push(key(v)),
            Some(First::Few(keys)) => {
                let mut h = Histogram::new(0, u64::MAX);
                // Buckets as wide as the values so far need, at once.
                let (lo, hi) = keys
                    .iter()
                    .fold((u64::MAX, 0), |(a, b), &k| (a.min(k), b.max(k)));
                let span = 64 - (hi - lo).leading_zeros();
                h.shift = span.saturating_sub(BUCKETS.ilog2());
                keys.iter().for_each(|&k| h.add(k));
                h.add(key(v));
                self.first = Some(First::Many(h));
            }
            Some(First::Many(h)) => h.add(key(v)),
            None => {}
        }
    }

    /// A row's value on a later pass.
    pub fn again(&mut self, v: f64) {
        let k = key(v);
        self.targets.iter_mut().for_each(|t| t.add(k));
    }

    /// Ends a pass: whether the median needs another.
    pub fn end_pass(&mut self) -> Result<bool, Changed> {
        if let Some(mut first) = self.first.take() {
            if self.n > 0 {
                let i = (self.n - 1) / 2;
                // polars' median of an even count: the two middle values.
                let ranks = if self.n % 2 == 1 { i..=i } else { i..=i + 1 };
                for r in ranks {
                    let t = match &mut first {
                        First::Few(keys) => nth_key(keys, r),
                        First::Many(h) => h.find(r),
                    };
                    self.targets.push(t.ok_or(Changed)?);
                }
            }
        } else {
            let targets = std::mem::take(&mut self.targets);
            for t in targets {
                self.targets.push(t.next().ok_or(Changed)?);
            }
        }
        Ok(self.targets.iter().any(|t| !matches!(t, Target::Found(_))))
    }

    /// Whether the median needs another pass (after the first).
    pub fn searching(&self) -> bool {
        self.targets.iter().any(|t| !matches!(t, Target::Found(_)))
    }

    /// The non-null values.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Their mean as polars' group mean gives it (null without values), in
    /// values per `unit`: sum / (n · unit), one rounding of an exact sum.
    pub fn mean(&self, unit: f64) -> Option<f64> {
        (self.n > 0).then(|| self.sum.sum / (self.n as f64 * unit))
    }

    /// Their median as polars' gives it (its linear interpolation: the
    /// lower middle value plus half the gap to the upper); null without
    /// values, or while a pass is still needed.
    pub fn median(&self) -> Option<f64> {
        let mut found = self.targets.iter().map(|t| match t {
            Target::Found(k) => Some(unkey(*k)),
            _ => None,
        });
        let lower = found.next()??;
        Some(match found.next() {
            None => lower,
            Some(upper) => {
                let upper = upper?;
                if lower == upper {
                    lower
                } else {
                    0.5 * (upper - lower) + lower
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds the values through as many passes as the median needs.
    fn stat(values: &[Option<f64>]) -> (Stat, usize) {
        let mut s = Stat::default();
        values.iter().for_each(|&v| s.first(v));
        let mut passes = 1;
        while s.end_pass().unwrap() {
            values.iter().flatten().for_each(|&v| s.again(v));
            passes += 1;
        }
        (s, passes)
    }

    #[test]
    fn keys_keep_the_order_of_floats() {
        let v = [
            f64::MIN,
            -1e300,
            -2.5,
            -1e-300,
            -0.0,
            0.0,
            1e-300,
            1.0,
            1.5,
            3e8,
            f64::MAX,
        ];
        for w in v.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} {}", w[0], w[1]);
        }
        for x in v {
            assert_eq!(unkey(key(x)).to_bits(), x.to_bits());
        }
    }

    /// By hand: 3, 1, 2 → median 2; 4, 1, 3, 2 → 2 + (3 − 2)/2 = 2.5; nulls
    /// not counted; no values → null mean and median.
    #[test]
    fn medians_and_means_by_hand() {
        let (s, passes) = stat(&[Some(3.0), None, Some(1.0), Some(2.0)]);
        assert_eq!(
            (s.count(), s.mean(1.0), s.median(), passes),
            (3, Some(2.0), Some(2.0), 1)
        );
        let (s, _) = stat(&[Some(4.0), Some(1.0), Some(3.0), Some(2.0)]);
        assert_eq!((s.mean(1.0), s.median()), (Some(2.5), Some(2.5)));
        let (s, _) = stat(&[None, None]);
        assert_eq!((s.count(), s.mean(1.0), s.median()), (0, None, None));
        // Two equal middle values: the value itself.
        let (s, _) = stat(&[Some(7.0), Some(7.0), Some(1.0), Some(9.0)]);
        assert_eq!(s.median(), Some(7.0));
    }

    /// Many distinct values (past the exact count): the search narrows by
    /// digits over several passes and still finds the sorted middle, as
    /// polars' median of the same values; the mean is polars' bit for bit.
    #[test]
    fn many_distinct_values_equal_polars() {
        use polars::prelude::*;
        // A deterministic spread: node counts, times in seconds, negatives.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // The last: 300,000 values, 99 % of them within 0.2 % of 1 and the
        // rest near 10^6, so that the median's bucket still holds more than
        // COLLECT after the first pass and is counted again before its
        // values are collected.
        for (n, scale) in [
            (5_001usize, 1e7),
            (20_000, 1e-3),
            (4_096, -50.0),
            (300_000, 1e-8),
        ] {
            let values: Vec<Option<f64>> = (0..n)
                .map(|i| {
                    let r = next();
                    (i % 11 != 0).then(|| {
                        let v = (r % 1_000_003) as f64 * scale / 7.0;
                        match (n, i % 100) {
                            (300_000, 0) => 1e6 + v,
                            (300_000, _) => 1.0 + v,
                            _ => v,
                        }
                    })
                })
                .collect();
            let (s, passes) = stat(&values);
            assert!(
                passes >= if n == 300_000 { 3 } else { 2 },
                "{passes} passes"
            );
            let series = Series::new("v".into(), &values);
            assert_eq!(s.count() as usize, n - series.null_count());
            assert_eq!(s.median(), series.median(), "{n} values × {scale}");
            // Its group's rows between another group's, as in a table of
            // many engines, the mean beside a median as in engine-stats'
            // query (one group of sorted keys, or a mean alone, is summed
            // by other kernels).
            let interleaved = df!(
                "g" => (0..2 * n).map(|i| (i % 2) as i32).collect::<Vec<_>>(),
                "v" => (0..2 * n).map(|i| if i % 2 == 0 { values[i / 2] } else { Some(1.0) }).collect::<Vec<_>>(),
            )
            .unwrap();
            let mean = interleaved
                .lazy()
                .group_by([col("g")])
                .agg([col("v").mean(), col("v").median().alias("median")])
                .filter(col("g").eq(lit(0)))
                .collect()
                .unwrap();
            let mean = mean.column("v").unwrap().f64().unwrap().get(0);
            assert_eq!(s.mean(1.0).map(f64::to_bits), mean.map(f64::to_bits));
        }
    }

    /// The rows changed between passes (fewer came back): an error, not a
    /// wrong median.
    #[test]
    fn rows_that_change_between_passes_are_an_error() {
        let values: Vec<f64> = (0..2_000).map(|i| f64::from(i) * 1.5).collect();
        let mut s = Stat::default();
        values.iter().for_each(|&v| s.first(Some(v)));
        assert_eq!(s.end_pass(), Ok(true));
        values[..10].iter().for_each(|&v| s.again(v));
        assert_eq!(s.end_pass(), Err(Changed));
    }
}
