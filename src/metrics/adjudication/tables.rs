//! What `adjudicate` prints beside the sweeps: the summary under its rule
//! set's name, the games behind a verdict, and the clock check with its side
//! tables.

use std::fmt;

use polars::prelude::*;

use super::clocks::{
    ClockCheck, ClockRows, clock_agreement_by_era, clock_causes, clock_disagreements, rule_ends,
    rule_ends_by_era,
};
use super::query::{self, By, Loaded, by_game, cols, summary, verdict};
use super::rules::RuleSet;
use crate::Error;
use crate::metrics::{Selection, game_listing};
use crate::schema::col as c;
use crate::schema::outputs::{self as out, Output};

/// A verdict whose games can be listed (`--games`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Agree,
    Wrong,
    Censored,
}

impl crate::choice::Choice for Verdict {
    const ALL: &'static [Self] = &[Verdict::Agree, Verdict::Wrong, Verdict::Censored];
    fn name(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Wrong => "wrong",
            Verdict::Censored => "censored",
        }
    }
}
crate::display_choice!(Verdict);

impl Verdict {
    /// The `verdict` column's value.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agree => verdict::AGREE,
            Verdict::Wrong => verdict::WRONG,
            Verdict::Censored => verdict::CENSORED,
        }
    }
}

/// [`summary`] of the outcomes of `set` grouped `by`, under a first column
/// `rules` (the set's name); per engine, only the selection's engines.
pub fn rule_summary(
    outcomes: DataFrame,
    set: &RuleSet,
    by: By,
    sel: &Selection,
) -> Result<DataFrame, Error> {
    let mut df = query::selected_groups(summary(outcomes.lazy(), by), by, sel).collect()?;
    df.insert_column(
        0,
        Column::new(cols::RULES.into(), vec![set.name.clone(); df.height()]),
    )?;
    Ok(df)
}

/// The games with verdict `v` among the outcomes: game_id, event, round,
/// white, black, result, plies, fire_ply, clause, rule_result, plies_saved.
pub fn games_behind(outcomes: &DataFrame, v: Verdict) -> Result<DataFrame, Error> {
    Ok(outcomes
        .clone()
        .lazy()
        .filter(col(cols::VERDICT).eq(lit(v.name())))
        .select(game_listing(&[
            c::PLIES,
            cols::FIRE_PLY,
            cols::CLAUSE,
            cols::RULE_RESULT,
            cols::PLIES_SAVED,
        ]))
        .collect()?)
}

/// The replayed TCEC clocks against the archive's (`--check-clocks`).
pub struct ClockReport {
    /// Per era and event ([`Loaded::clock_check`]), or the disagreeing
    /// plies' games when listed.
    pub table: DataFrame,
    /// Archived Rd and Rr values, and those the replay agrees with.
    pub values: u64,
    pub agree: u64,
    pub events: usize,
    /// Games ended by the TCEC draw or win rule, and those of them where it
    /// did not fire at exactly their last ply.
    pub rule_ends: usize,
    pub exceptions: usize,
    /// The side tables, each as (file suffix, its output, rows): per era,
    /// the disagreeing plies by cause, rule ends by era, the exceptions.
    pub details: Vec<(&'static str, &'static Output, DataFrame)>,
}

/// The clock check of `set` over the loaded games (with their clocks);
/// `list`: the table is the disagreeing games instead of the per-event one.
pub fn clock_report(loaded: &Loaded, set: &RuleSet, list: bool) -> Result<ClockReport, Error> {
    // One pass over the chunks for both.
    let (checks, outcomes): (Vec<_>, Vec<_>) = loaded
        .map_chunks(|c| {
            Ok((
                c.clock_check(set, ClockRows::Disagreeing)?,
                c.outcomes(set)?,
            ))
        })?
        .into_iter()
        .unzip();
    let check = ClockCheck::merge(checks)?;
    let (per_event, clocks) = (check.per_event, check.plies.lazy());
    let ends = rule_ends(by_game(outcomes)?.lazy()).collect()?;
    let bad = ends.clone().lazy().filter(col("ok").not()).collect()?;
    let sum = |c: &str| -> Result<u64, Error> {
        Ok(per_event.column(c)?.as_materialized_series().sum::<u64>()?)
    };
    let values = sum("rd_plies")? + sum("rr_plies")?;
    let agree = sum("rd_agree")? + sum("rr_agree")?;
    let details = vec![
        (
            "eras",
            &out::ADJUDICATION_CLOCKS_ERAS,
            clock_agreement_by_era(per_event.clone().lazy()).collect()?,
        ),
        (
            "causes",
            &out::ADJUDICATION_CLOCKS_CAUSES,
            clock_causes(clocks.clone()).collect()?,
        ),
        (
            "rule-ends",
            &out::ADJUDICATION_CLOCKS_RULE_ENDS,
            rule_ends_by_era(ends.clone().lazy()).collect()?,
        ),
        (
            "exceptions",
            &out::ADJUDICATION_CLOCKS_EXCEPTIONS,
            bad.clone(),
        ),
    ];
    let events = per_event.height();
    let table = if list {
        clock_disagreements(clocks, loaded.games.clone().lazy()).collect()?
    } else {
        per_event
    };
    Ok(ClockReport {
        table,
        values,
        agree,
        events,
        rule_ends: ends.height(),
        exceptions: bad.height(),
        details,
    })
}

/// The one-line summary.
impl fmt::Display for ClockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clocks: {} of {} archived Rd/Rr values replayed ({:.2} %) in {} events; \
             games ended by the TCEC draw/win rule: {}, fired at exactly their last ply: {}, exceptions: {}",
            self.agree,
            self.values,
            100.0 * self.agree as f64 / self.values.max(1) as f64,
            self.events,
            self.rule_ends,
            self.rule_ends - self.exceptions,
            self.exceptions
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::ids;

    /// Three games' outcomes: one of each listable verdict.
    fn outcomes() -> DataFrame {
        df!(
            c::GAME_ID => [1i64, 2, 3],
            c::EVENT => ["E"; 3],
            c::ROUND => ["1", "2", "3"],
            c::WHITE => ["A", "B", "A"],
            c::BLACK => ["B", "A", "C"],
            c::RESULT => ["1-0", "1/2-1/2", "0-1"],
            c::PLIES => [80u32, 120, 60],
            cols::FIRE_PLY => [Some(70u32), Some(100), None],
            cols::CLAUSE => [Some("resign"), Some("draw"), None],
            cols::RULE_RESULT => [Some("1-0"), Some("0-1"), None],
            cols::PLIES_SAVED => [Some(10i64), Some(20), None],
            cols::VERDICT => [verdict::AGREE, verdict::WRONG, verdict::CENSORED],
        )
        .unwrap()
    }

    #[test]
    fn games_behind_each_verdict() {
        let o = outcomes();
        for (v, id) in [
            (Verdict::Agree, 1),
            (Verdict::Wrong, 2),
            (Verdict::Censored, 3),
        ] {
            let df = games_behind(&o, v).unwrap();
            assert_eq!(ids(&df), [id], "{v:?}");
            assert_eq!(df.width(), 11);
        }
    }

    #[test]
    fn verdict_names_are_the_column_values() {
        assert_eq!(Verdict::Agree.name(), "agree");
        assert_eq!(Verdict::Wrong.name(), "wrong");
        assert_eq!(Verdict::Censored.name(), "censored");
    }
}
