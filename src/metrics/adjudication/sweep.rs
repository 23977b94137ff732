//! Parameter sweeps: one summary row per point of a grid over one or two
//! rule keys (`--sweep KEY=FROM..TO:STEP`), so a director can read the
//! trade-off between plies saved and wrong results; with `--check-clocks`,
//! the point whose replayed clocks agree best with the archive's, per era and event
//! ([`derive()`]).

use polars::prelude::*;

use super::clocks::{ClockCheck, ClockRows};
use super::query::{self, By, Loaded, cols, summary_of_sums};
use super::rules::{RuleSet, range};
use crate::Error;
use crate::metrics::Selection;

/// One swept key and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<f64>,
}

impl Axis {
    /// `KEY=FROM..TO:STEP`.
    ///
    /// ```
    /// use evallab::metrics::adjudication::sweep::Axis;
    /// let a = Axis::parse("draw.score=5..15:5").unwrap();
    /// assert_eq!((a.key.as_str(), a.values), ("draw.score", vec![5.0, 10.0, 15.0]));
    /// ```
    pub fn parse(spec: &str) -> Result<Axis, Error> {
        let (key, r) = spec
            .split_once('=')
            .ok_or_else(|| Error::Usage(format!("--sweep {spec}: expected KEY=FROM..TO:STEP")))?;
        let values = range(r).map_err(|e| Error::Usage(format!("--sweep {key}: {e}")))?;
        Ok(Axis {
            key: key.to_string(),
            values,
        })
    }

    /// The axes of a sweep: one or two.
    pub fn parse_all(specs: &[String]) -> Result<Vec<Axis>, Error> {
        let axes = specs
            .iter()
            .map(|s| Axis::parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        if axes.len() > 2 {
            return Err(Error::Usage("--sweep: one or two keys".into()));
        }
        Ok(axes)
    }
}

/// A number as a rule value: integral values without a fraction.
fn value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// A grid point: (key, value) per axis.
pub type Point = Vec<(String, f64)>;

/// Every point of the grid (the first axis varies slowest).
pub fn grid(axes: &[Axis]) -> Vec<Point> {
    axes.iter().fold(vec![Vec::new()], |acc, a| {
        acc.iter()
            .flat_map(|p| {
                a.values.iter().map(move |&v| {
                    let mut q = p.clone();
                    q.push((a.key.clone(), v));
                    q
                })
            })
            .collect()
    })
}

/// The rule set at each point, checked before anything is replayed.
pub fn sets(set: &RuleSet, axes: &[Axis]) -> Result<Vec<(Point, RuleSet)>, Error> {
    grid(axes)
        .into_iter()
        .map(|p| {
            let s = p
                .iter()
                .try_fold(set.clone(), |s, (k, v)| s.set(k, &value(*v)))?;
            Ok((p, s))
        })
        .collect()
}

/// Called after each grid point with (points done, points in all).
pub type Progress<'a> = &'a dyn Fn(usize, usize);

/// The summary per grid point (one row over all selected games, or a row
/// per `by` group), the swept keys first.
pub fn sweep(
    loaded: &Loaded,
    set: &RuleSet,
    axes: &[Axis],
    by: By,
    sel: &Selection,
    progress: Progress,
) -> Result<DataFrame, Error> {
    let points = sets(set, axes)?;
    // Each chunk read once for every point, only its sums kept.
    let total = points.len() * loaded.chunks();
    let mut done = 0;
    let mut per_point: Vec<Vec<LazyFrame>> = vec![Vec::new(); points.len()];
    loaded.map_chunks(|chunk| {
        for ((_, s), sums) in points.iter().zip(&mut per_point) {
            sums.push(query::sums(chunk.outcomes(s)?.lazy(), by).collect()?.lazy());
            done += 1;
            progress(done, total);
        }
        Ok(())
    })?;
    let mut out: Option<DataFrame> = None;
    for ((point, _), sums) in points.iter().zip(per_point) {
        let sums = concat(sums, UnionArgs::default())?;
        let mut row = query::selected_groups(summary_of_sums(sums, by), by, sel).collect()?;
        for (i, (k, v)) in point.iter().enumerate() {
            row.insert_column(i, Column::new(k.as_str().into(), vec![*v; row.height()]))?;
        }
        out = Some(match out {
            None => row,
            Some(mut df) => {
                df.vstack_mut(&row)?;
                df
            }
        });
    }
    out.ok_or_else(|| Error::Usage("--sweep: no points".into()))
}

/// Parameters derived from the archive's clocks: per era and event (an era
/// can take some rounds of an event), the grid point
/// whose replayed `Rd`/`Rr` agree with the archive on the most plies, beside
/// the rule set's own agreement. `derived` is true where the point does
/// strictly better; only then are its key values shown (on a tie the rule
/// set's values stand; among equal points the grid's first is taken).
pub fn derive(
    loaded: &Loaded,
    set: &RuleSet,
    axes: &[Axis],
    progress: Progress,
) -> Result<DataFrame, Error> {
    let event = crate::schema::col::EVENT;
    // Counts per era and event for each point, never per-ply rows: memory
    // stays that of one chunk's replay whatever the size of the grid. Each
    // chunk is read once for the rule set and every point, and points that
    // differ only in the draw rule's move floor share its replays.
    let counts = |check: ClockCheck| -> Result<LazyFrame, Error> {
        Ok(check
            .per_event
            .lazy()
            .select([
                col(cols::ERA),
                col(event),
                (col("rd_plies") + col("rr_plies")).alias("plies"),
                (col("rd_agree") + col("rr_agree")).alias("agree"),
            ])
            .collect()?
            .lazy())
    };
    let grid = sets(set, axes)?;
    let all: Vec<RuleSet> = std::iter::once(set.clone())
        .chain(grid.iter().map(|(_, s)| s.clone()))
        .collect();
    let total = grid.len() * loaded.chunks();
    let mut done = 0;
    let mut own = Vec::new();
    let mut per_point: Vec<Vec<LazyFrame>> = vec![Vec::new(); grid.len()];
    loaded.map_chunks(|chunk| {
        let mut checks = chunk.clock_checks(&all, ClockRows::None)?.into_iter();
        own.push(counts(checks.next().expect("the rule set's own"))?);
        for (check, counts_of) in checks.zip(&mut per_point) {
            counts_of.push(counts(check)?);
        }
        done += grid.len();
        progress(done, total);
        Ok(())
    })?;
    // The chunks' counts summed per era and event.
    let summed = |parts: Vec<LazyFrame>| -> Result<LazyFrame, Error> {
        Ok(concat(parts, UnionArgs::default())?
            .group_by([col(cols::ERA), col(event)])
            .agg([col("plies").sum(), col("agree").sum()]))
    };
    let own = summed(own)?;
    let mut points = Vec::new();
    for ((point, _), parts) in grid.iter().zip(per_point) {
        let mut lf = summed(parts)?.select([col(cols::ERA), col(event), col("agree")]);
        for (k, v) in point {
            lf = lf.with_column(lit(*v).alias(k.as_str()));
        }
        points.push(lf);
    }
    if points.is_empty() {
        return Err(Error::Usage("--sweep: no points".into()));
    }
    let mut firsts: Vec<Expr> = axes.iter().map(|a| col(a.key.as_str()).first()).collect();
    firsts.push(col("agree").first().alias("agree_best"));
    // Best first; the stable sort keeps grid order among ties, and a group
    // keeps its rows in frame order.
    let best = concat(points, UnionArgs::default())?
        .sort(
            ["agree"],
            SortMultipleOptions::default()
                .with_order_descending(true)
                .with_maintain_order(true),
        )
        .group_by([col(cols::ERA), col(event)])
        .agg(firsts);
    let pct = |agree: &str| {
        lit(100.0) * col(agree).cast(DataType::Float64) / col("plies").cast(DataType::Float64)
    };
    let mut out = vec![
        col(cols::ERA),
        col(event),
        col("plies"),
        pct("agree").alias("agree_pct"),
    ];
    let derived = col("agree_best").gt(col("agree"));
    // A key's value is shown only where it beats the rule set's own.
    out.extend(axes.iter().map(|a| {
        when(derived.clone())
            .then(col(a.key.as_str()))
            .otherwise(lit(NULL).cast(DataType::Float64))
            .alias(a.key.as_str())
    }));
    out.extend([
        pct("agree_best").alias("best_pct"),
        derived.alias("derived"),
    ]);
    // An event no era matches has a null era: it still meets its own best.
    let mut by_era_event = JoinArgs::new(JoinType::Left);
    by_era_event.nulls_equal = true;
    Ok(own
        .join(
            best,
            [col(cols::ERA), col(event)],
            [col(cols::ERA), col(event)],
            by_era_event,
        )
        .select(out)
        .sort([cols::ERA, event], SortMultipleOptions::default())
        .collect()?)
}

/// The sweep table as plot points: (label "key=value …", wrong, saved_pct).
pub fn tradeoff_points(df: &DataFrame, axes: &[Axis]) -> Result<Vec<(String, f64, f64)>, Error> {
    let num = |c: &str| -> Result<Vec<f64>, Error> {
        Ok(df
            .column(c)?
            .cast(&DataType::Float64)?
            .f64()?
            .iter()
            .map(|v| v.unwrap_or(0.0))
            .collect())
    };
    let keys: Vec<Vec<f64>> = axes.iter().map(|a| num(&a.key)).collect::<Result<_, _>>()?;
    let wrong = num(super::query::cols::WRONG)?;
    let saved = num(super::query::cols::SAVED_PCT)?;
    Ok((0..df.height())
        .map(|i| {
            let label = axes
                .iter()
                .zip(&keys)
                .map(|(a, k)| format!("{}={}", a.key.rsplit('.').next().unwrap_or(&a.key), k[i]))
                .collect::<Vec<_>>()
                .join(" ");
            (label, wrong[i], saved[i])
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_has_one_or_two_axes() {
        let spec = |k: &str| format!("{k}=0..10:5");
        let two = Axis::parse_all(&[spec("draw.score"), spec("resign.score")]).unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].key, "resign.score");
        assert_eq!(two[1].values, [0.0, 5.0, 10.0]);
        let three = Axis::parse_all(&[spec("a"), spec("b"), spec("c")]).unwrap_err();
        assert_eq!(three.to_string(), "--sweep: one or two keys");
        assert!(Axis::parse_all(&[]).unwrap().is_empty());
    }
}
