//! The clock check (`--check-clocks`): the replay's TCEC clocks (`Rd`, `Rr`)
//! against those the archive wrote after every ply, per era and event, with
//! the disagreeing plies by cause; and the games the archive says a TCEC rule
//! ended, against the ply where the replay fires it. Apart from the outcome
//! queries ([`super::query`]): it checks the replay itself against the
//! archive, on the same loaded plies.

use std::collections::HashMap;

use polars::prelude::*;
use rayon::prelude::*;

use super::query::{Chunk, Loaded, cols, percent};
use super::replay::{Ply, replay, reprint_draw_clock};
use super::rules::{Compiled, RuleSet, TcecDraw, TcecEra};
use crate::Error;
use crate::schema::{col as c, metric};

// Clock comparison (not a table either): a placeholder eval in the window.
const PLACEHOLDER_IN_WINDOW: &str = "placeholder_in_window";

/// Which compared plies [`Loaded::clock_check`] keeps as rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockRows {
    None,
    Disagreeing,
    All,
}

/// The archive's clocks against a replay ([`Loaded::clock_check`]).
pub struct ClockCheck {
    /// Per era and event: rd_plies, rd_agree, rr_plies, rr_agree, the first
    /// disagreeing ply in game order (first_bad_game, first_bad_ply,
    /// rd_archive, rd_replay, rr_archive, rr_replay), rd_pct and rr_pct.
    pub per_event: DataFrame,
    /// The compared plies asked for: game_id, ply, era, rd, rr, rd_replay,
    /// rr_replay, placeholder_in_window (a placeholder eval in the draw
    /// window up to the ply).
    pub plies: DataFrame,
}

/// One compared ply.
struct ClockRow {
    game_id: i64,
    ply: u32,
    archive: (Option<i16>, Option<i16>),
    replay: (i16, i16),
    placeholder: bool,
}

/// One era and event's counts and its first disagreement in game order.
type EventClocks<'a> = ([u32; 4], Option<&'a ClockRow>);

/// One game's comparison: the four counts of [`ClockCheck::per_event`], its
/// first disagreement and the plies kept.
#[derive(Default)]
struct GameClocks {
    counts: [u32; 4],
    first_bad: Option<ClockRow>,
    rows: Vec<ClockRow>,
}

impl Loaded<'_> {
    /// [`Chunk::clock_check`] of all games, a chunk at a time: the counts
    /// summed per era and event, the first disagreement the earliest in game
    /// order, the plies one chunk after the other.
    pub fn clock_check(&self, set: &RuleSet, rows: ClockRows) -> Result<ClockCheck, Error> {
        ClockCheck::merge(self.map_chunks(|c| c.clock_check(set, rows))?)
    }
}

impl ClockCheck {
    /// The checks of consecutive chunks as one (see [`Loaded::clock_check`]).
    pub fn merge(checks: Vec<ClockCheck>) -> Result<ClockCheck, Error> {
        if checks.len() == 1 {
            return Ok(checks.into_iter().next().expect("one check"));
        }
        let (per_event, plies): (Vec<_>, Vec<_>) =
            checks.into_iter().map(|c| (c.per_event, c.plies)).unzip();
        let sum = |c: &str| col(c).sum();
        let first = |c: &str| col(c).first();
        let per_event = concat(
            per_event
                .into_iter()
                .map(IntoLazy::lazy)
                .collect::<Vec<_>>(),
            UnionArgs::default(),
        )?
        // The earliest disagreement first: a group keeps its rows in frame order.
        .sort(
            ["first_bad_game", "first_bad_ply"],
            SortMultipleOptions::default()
                .with_nulls_last(true)
                .with_maintain_order(true),
        )
        .group_by([col(cols::ERA), col(c::EVENT)])
        .agg([
            sum("rd_plies"),
            sum("rd_agree"),
            sum("rr_plies"),
            sum("rr_agree"),
            first("first_bad_game"),
            first("first_bad_ply"),
            first("rd_archive"),
            first(cols::RD_REPLAY),
            first("rr_archive"),
            first(cols::RR_REPLAY),
        ]);
        Ok(ClockCheck {
            per_event: with_percents(per_event).collect()?,
            plies: crate::metrics::chunks::stack(plies)?.sort(
                [c::GAME_ID, c::PLY],
                SortMultipleOptions::default().with_maintain_order(true),
            )?,
        })
    }
}

/// [`ClockCheck::per_event`]'s agreement in percent, sorted by era and event.
fn with_percents(counts: LazyFrame) -> LazyFrame {
    counts
        .with_columns([
            percent("rd_agree", "rd_plies").alias("rd_pct"),
            percent("rr_agree", "rr_plies").alias("rr_pct"),
        ])
        .sort([cols::ERA, c::EVENT], SortMultipleOptions::default())
}

impl Chunk {
    /// The replayed clocks of `set` against the archive's: per era and event
    /// the Rd and Rr values compared and agreeing, with the first
    /// disagreement; and the compared plies `rows` asks for. One pass over
    /// the games, counting as it goes: a sweep that asks for no rows holds
    /// no per-ply data whatever the size of its grid.
    pub fn clock_check(&self, set: &RuleSet, rows: ClockRows) -> Result<ClockCheck, Error> {
        let mut one = self.clock_checks(std::slice::from_ref(set), rows)?;
        Ok(one.pop().expect("one check per set"))
    }

    /// [`Chunk::clock_check`] of each of `sets`, in their order. Sets whose
    /// TCEC rules differ at most in the draw rule's move floor (a sweep of
    /// `tcec.draw.movenumber`, or of a key outside the TCEC rules, which
    /// never touch the clocks) share one replay per game: the floor changes
    /// only how the draw clock is printed ([`reprint_draw_clock`]).
    pub fn clock_checks(
        &self,
        sets: &[RuleSet],
        rows: ClockRows,
    ) -> Result<Vec<ClockCheck>, Error> {
        let mut out: Vec<Option<ClockCheck>> = sets.iter().map(|_| None).collect();
        for family in families(sets) {
            // A game's era comes from the eras' events and rounds, which a
            // family shares: found once, each member compiled per era.
            let (eras, idx) = self.eras(&sets[family[0]])?;
            let compiled: Vec<Vec<Compiled>> = family
                .iter()
                .map(|&j| eras.iter().map(|&e| sets[j].compile_era(e)).collect())
                .collect();
            let rules: Vec<&[Compiled]> = compiled.iter().map(Vec::as_slice).collect();
            let per_game = self.compare_clocks(&rules, &idx, rows)?;
            for (m, &j) in family.iter().enumerate() {
                let games: Vec<&GameClocks> = per_game.iter().map(|g| &g[m]).collect();
                out[j] = Some(self.clock_tables(&games, rules[m], &idx)?);
            }
        }
        Ok(out
            .into_iter()
            .map(|c| c.expect("every set is in a family"))
            .collect())
    }

    /// Every game's comparison for each member of a family (`rules`, see
    /// [`families`]): one replay under the first member's rules, its draw
    /// clock printed again under each member's move floor.
    fn compare_clocks(
        &self,
        rules: &[&[Compiled]],
        idx: &[usize],
        rows: ClockRows,
    ) -> Result<Vec<Vec<GameClocks>>, Error> {
        let gids = self.games.column(c::GAME_ID)?.i64()?;
        Ok(self
            .spans
            .par_iter()
            .zip(idx.par_iter())
            .enumerate()
            .map(|(g, (&(a, b), &r))| {
                let mut out: Vec<GameClocks> =
                    rules.iter().map(|_| GameClocks::default()).collect();
                if !(a..b).any(|i| self.rd[i].is_some() || self.rr[i].is_some()) {
                    return out;
                }
                let plies = &self.plies[a..b];
                let replayed = &rules[0][r];
                let rep = replay(replayed, plies, true);
                let window = replayed
                    .tcec
                    .as_ref()
                    .and_then(|t| t.1)
                    .map_or(10, |d| 2 * d.movecount as usize);
                let draws: Vec<Option<TcecDraw>> = rules
                    .iter()
                    .map(|m| m[r].tcec.as_ref().and_then(|t| t.1))
                    .collect();
                for (k, &(rd0, rr)) in rep.clocks.iter().enumerate() {
                    let (ad, ar) = (self.rd[a + k], self.rr[a + k]);
                    if ad.is_none() && ar.is_none() {
                        continue;
                    }
                    let ply = k as u32 + 1;
                    for (o, draw) in out.iter_mut().zip(&draws) {
                        // A book move prints no clock, whatever the floor.
                        let rd = match draw {
                            Some(d) if !plies[k].book => reprint_draw_clock(rd0, d, ply),
                            _ => rd0,
                        };
                        let (rd_ok, rr_ok) =
                            (ad.is_none_or(|v| v == rd), ar.is_none_or(|v| v == rr));
                        o.counts[0] += u32::from(ad.is_some());
                        o.counts[1] += u32::from(ad == Some(rd));
                        o.counts[2] += u32::from(ar.is_some());
                        o.counts[3] += u32::from(ar == Some(rr));
                        let keep = match rows {
                            ClockRows::None => false,
                            ClockRows::Disagreeing => !(rd_ok && rr_ok),
                            ClockRows::All => true,
                        };
                        let row = || ClockRow {
                            game_id: gids.get(g).unwrap_or_default(),
                            ply,
                            archive: (ad, ar),
                            replay: (rd, rr),
                            placeholder: plies[(k + 1).saturating_sub(window)..=k]
                                .iter()
                                .any(Ply::placeholder),
                        };
                        if !(rd_ok && rr_ok) && o.first_bad.is_none() {
                            o.first_bad = Some(row());
                        }
                        if keep {
                            o.rows.push(row());
                        }
                    }
                }
                out
            })
            .collect())
    }

    /// One set's [`ClockCheck`] from its games' comparisons.
    fn clock_tables(
        &self,
        per_game: &[&GameClocks],
        rules: &[Compiled],
        idx: &[usize],
    ) -> Result<ClockCheck, Error> {
        let era = |r: usize| rules[r].tcec.as_ref().map(|t| t.0.as_str());
        let events = self.games.column(c::EVENT)?.str()?;
        // Per era and event: the counts and the first disagreement in game order.
        let mut groups: HashMap<(Option<&str>, Option<&str>), EventClocks> = HashMap::new();
        for (g, (gc, &r)) in per_game.iter().zip(idx).enumerate() {
            if gc.counts[0] + gc.counts[2] == 0 {
                continue;
            }
            let (sums, first) = groups.entry((era(r), events.get(g))).or_default();
            for (s, n) in sums.iter_mut().zip(gc.counts) {
                *s += n;
            }
            if let Some(b) = &gc.first_bad
                && first.is_none_or(|f| (b.game_id, b.ply) < (f.game_id, f.ply))
            {
                *first = Some(b);
            }
        }
        let groups: Vec<_> = groups.into_iter().collect();
        let count = |i: usize| groups.iter().map(|(_, (n, _))| n[i]).collect::<Vec<_>>();
        let first = |f: fn(&ClockRow) -> Option<i64>| {
            groups
                .iter()
                .map(|(_, (_, b))| b.and_then(f))
                .collect::<Vec<_>>()
        };
        let i16s = |v: Vec<Option<i64>>| {
            v.into_iter()
                .map(|x| x.map(|x| x as i16))
                .collect::<Vec<_>>()
        };
        let per_event = DataFrame::new_infer_height(vec![
            Column::new(
                cols::ERA.into(),
                groups.iter().map(|((e, _), _)| *e).collect::<Vec<_>>(),
            ),
            Column::new(
                c::EVENT.into(),
                groups.iter().map(|((_, e), _)| *e).collect::<Vec<_>>(),
            ),
            Column::new("rd_plies".into(), count(0)),
            Column::new("rd_agree".into(), count(1)),
            Column::new("rr_plies".into(), count(2)),
            Column::new("rr_agree".into(), count(3)),
            Column::new("first_bad_game".into(), first(|b| Some(b.game_id))),
            Column::new(
                "first_bad_ply".into(),
                first(|b| Some(i64::from(b.ply)))
                    .into_iter()
                    .map(|p| p.map(|p| p as u32))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "rd_archive".into(),
                i16s(first(|b| b.archive.0.map(i64::from))),
            ),
            Column::new(
                cols::RD_REPLAY.into(),
                i16s(first(|b| Some(i64::from(b.replay.0)))),
            ),
            Column::new(
                "rr_archive".into(),
                i16s(first(|b| b.archive.1.map(i64::from))),
            ),
            Column::new(
                cols::RR_REPLAY.into(),
                i16s(first(|b| Some(i64::from(b.replay.1)))),
            ),
        ])?;
        let per_event = with_percents(per_event.lazy()).collect()?;
        let kept = per_game
            .iter()
            .zip(idx)
            .flat_map(|(gc, &r)| gc.rows.iter().map(move |row| (row, r)));
        let mut gid = Vec::new();
        let mut ply = Vec::new();
        let mut eras = Vec::new();
        let mut rd = Vec::new();
        let mut rr = Vec::new();
        let mut rd_r = Vec::new();
        let mut rr_r = Vec::new();
        let mut held = Vec::new();
        for (row, r) in kept {
            gid.push(row.game_id);
            ply.push(row.ply);
            eras.push(era(r));
            rd.push(row.archive.0);
            rr.push(row.archive.1);
            rd_r.push(row.replay.0);
            rr_r.push(row.replay.1);
            held.push(row.placeholder);
        }
        let plies = DataFrame::new_infer_height(vec![
            Column::new(c::GAME_ID.into(), gid),
            Column::new(c::PLY.into(), ply),
            Column::new(cols::ERA.into(), eras),
            Column::new(c::RD.into(), rd),
            Column::new(c::RR.into(), rr),
            Column::new(cols::RD_REPLAY.into(), rd_r),
            Column::new(cols::RR_REPLAY.into(), rr_r),
            Column::new(PLACEHOLDER_IN_WINDOW.into(), held),
        ])?;
        Ok(ClockCheck { per_event, plies })
    }
}

/// The sets grouped into families that share a replay
/// ([`Chunk::clock_checks`]): equal TCEC rules once the draw rule's move
/// floor is left out. Indices into `sets`, in first-seen order.
fn families(sets: &[RuleSet]) -> Vec<Vec<usize>> {
    let key = |s: &RuleSet| {
        let mut eras = s.tcec.clone();
        for d in eras.iter_mut().filter_map(|e| e.draw.as_mut()) {
            d.movenumber = 0;
        }
        eras
    };
    let mut families: Vec<(Vec<TcecEra>, Vec<usize>)> = Vec::new();
    for (j, s) in sets.iter().enumerate() {
        let k = key(s);
        match families.iter_mut().find(|(f, _)| *f == k) {
            Some((_, members)) => members.push(j),
            None => families.push((k, vec![j])),
        }
    }
    families.into_iter().map(|(_, m)| m).collect()
}

/// The per-era sums of [`ClockCheck::per_event`].
pub fn clock_agreement_by_era(per_event: LazyFrame) -> LazyFrame {
    per_event
        .group_by([col(cols::ERA)])
        .agg([
            len().alias("events"),
            col("rd_plies").sum(),
            col("rd_agree").sum(),
            col("rr_plies").sum(),
            col("rr_agree").sum(),
        ])
        .with_columns([
            percent("rd_agree", "rd_plies").alias("rd_pct"),
            percent("rr_agree", "rr_plies").alias("rr_pct"),
        ])
        .sort([cols::ERA], SortMultipleOptions::default())
}

/// The games whose replayed clocks disagree with the archive's, with the
/// first disagreeing ply and the number of disagreeing plies.
pub fn clock_disagreements(clocks: LazyFrame, games: LazyFrame) -> LazyFrame {
    let rd_bad = col(c::RD)
        .is_not_null()
        .and(col(c::RD).neq(col(cols::RD_REPLAY)));
    let rr_bad = col(c::RR)
        .is_not_null()
        .and(col(c::RR).neq(col(cols::RR_REPLAY)));
    clocks
        .filter(rd_bad.or(rr_bad))
        .sort([c::GAME_ID, c::PLY], SortMultipleOptions::default())
        .group_by([col(c::GAME_ID)])
        .agg([
            col(cols::ERA).first(),
            col(c::PLY).first().alias("first_bad_ply"),
            col(c::RD).first(),
            col(cols::RD_REPLAY).first(),
            col(c::RR).first(),
            col(cols::RR_REPLAY).first(),
            len().alias("bad_plies"),
        ])
        .join(
            games.select([col(c::GAME_ID), col(c::EVENT), col(c::ROUND)]),
            [col(c::GAME_ID)],
            [col(c::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .sort([c::GAME_ID], SortMultipleOptions::default())
}

/// Games the archive says ended by TCEC's draw or win rule, and whether the
/// replay fired that rule at exactly their last ply (`ok`).
pub fn rule_ends(outcomes: LazyFrame) -> LazyFrame {
    let text = col(c::TERMINATION_DETAILS)
        .fill_null(col(c::TERMINATION))
        .str()
        .to_lowercase();
    let rule = when(text.clone().str().contains(lit("tcec draw rule"), true))
        .then(lit(super::replay::clause::TCEC_DRAW))
        .when(text.str().contains(lit("tcec win rule"), true))
        .then(lit(super::replay::clause::TCEC_WIN))
        .otherwise(lit(NULL).cast(DataType::String))
        .alias("archive_rule");
    outcomes
        .with_column(rule)
        .filter(col("archive_rule").is_not_null())
        .with_column(
            col(cols::FIRE_PLY)
                .cast(DataType::Int64)
                .eq(col(c::PLIES).cast(DataType::Int64))
                .and(col(cols::CLAUSE).eq(col("archive_rule")))
                .fill_null(false)
                .alias("ok"),
        )
        .select([
            col(c::GAME_ID),
            col(c::EVENT),
            col(c::ROUND),
            col(c::WHITE),
            col(c::BLACK),
            col(c::RESULT),
            col(c::PLIES),
            col("archive_rule"),
            col(cols::ERA),
            col(cols::FIRE_PLY),
            col(cols::CLAUSE),
            col("ok"),
        ])
}

/// Disagreeing plies by kind of disagreement, with one example each: a
/// placeholder eval in the count window (the engine's real score, which the
/// adjudicator counted, is not in the PGN: it prints 0.00), then by shape: the
/// archive's count behind the replay's (it did not advance), ahead of it,
/// counting where the replay does not (or the reverse), both still negative
/// (before the window can complete), and the win clock.
pub fn clock_causes(clocks: LazyFrame) -> LazyFrame {
    let (a, r) = (col(c::RD), col(cols::RD_REPLAY));
    let rd_bad = a.clone().is_not_null().and(a.clone().neq(r.clone()));
    let rr_bad = col(c::RR)
        .is_not_null()
        .and(col(c::RR).neq(col(cols::RR_REPLAY)));
    let pos = |e: Expr| e.gt_eq(lit(0));
    let cause = when(col(PLACEHOLDER_IN_WINDOW))
        .then(lit(
            "score not recorded: a placeholder eval (d=1, 0.00) in the count window",
        ))
        .when(rd_bad.clone().not())
        .then(lit("rr: win clock differs"))
        .when(
            pos(a.clone())
                .and(pos(r.clone()))
                .and(a.clone().gt(r.clone())),
        )
        .then(lit("rd: archive count behind the replay (did not advance)"))
        .when(pos(a.clone()).and(pos(r.clone())))
        .then(lit("rd: archive count ahead of the replay"))
        .when(pos(a.clone()))
        .then(lit("rd: archive counts, replay does not"))
        .when(pos(r.clone()))
        .then(lit("rd: replay counts, archive does not"))
        .otherwise(lit("rd: both negative, counts differ"))
        .alias("cause");
    clocks
        .filter(rd_bad.or(rr_bad))
        .with_column(cause)
        .sort([c::GAME_ID, c::PLY], SortMultipleOptions::default())
        .group_by([col("cause")])
        .agg([
            len().alias(c::PLIES),
            col(c::GAME_ID).first().alias("example_game"),
            col(c::PLY).first().alias("example_ply"),
            col(c::RD).first().alias("rd_archive"),
            col(cols::RD_REPLAY).first(),
            col(c::RR).first().alias("rr_archive"),
            col(cols::RR_REPLAY).first(),
        ])
        .sort(
            [c::PLIES],
            SortMultipleOptions::default().with_order_descending(true),
        )
}

/// [`rule_ends`] per era: the games ended by a TCEC rule and how many the
/// replay fired at exactly their last ply.
pub fn rule_ends_by_era(ends: LazyFrame) -> LazyFrame {
    ends.group_by([col(cols::ERA)])
        .agg([
            len().alias(metric::GAMES),
            col("ok").sum().alias("fired_at_end"),
        ])
        .sort([cols::ERA], SortMultipleOptions::default())
}
