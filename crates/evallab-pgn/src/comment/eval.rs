//! Raw evals as written and their normalisation to White-POV centipawns or
//! mate in full moves.

/// Whose point of view a raw eval is written from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pov {
    White,
    Mover,
}

/// An eval as written, before normalisation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RawEval {
    /// Pawn units.
    Pawns(f64, Pov),
    /// `M<n>` counts plies, `#<n>` full moves; the sign is the writer's.
    MatePlies(i32, Pov),
    MateMoves(i32, Pov),
}

/// Classification of a normalised eval (the `eval_kind` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalKind {
    Cp,
    Mate,
    /// `d=1` with 0.00: the GUI wrote a placeholder, there was no search.
    Placeholder,
    /// |eval| above [`ABSURD_PAWNS`]: overflow garbage such as 21474836.48;
    /// or a mate beyond the `mate` column's ±32767 moves.
    Absurd,
}

impl EvalKind {
    /// Name stored in the `eval_kind` column.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Cp => "cp",
            EvalKind::Mate => "mate",
            EvalKind::Placeholder => "placeholder",
            EvalKind::Absurd => "absurd",
        }
    }
}

/// Evals beyond this many pawns are overflow garbage, not engine opinions
/// (TB plateaus such as ±150 or 999.99 stay below it and are kept as values).
pub const ABSURD_PAWNS: f64 = 1000.0;

/// A normalised eval: White POV centipawns or mate in full moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval {
    pub kind: EvalKind,
    pub cp: Option<i32>,
    pub mate: Option<i16>,
}

impl RawEval {
    /// Normalises to White POV; `mover_white` is the side that played the move
    /// the comment belongs to. `depth` detects TCEC's `d=1` placeholders.
    pub fn normalize(self, mover_white: bool, depth: Option<i16>) -> Eval {
        let flip = |pov: Pov| -> i32 {
            if pov == Pov::Mover && !mover_white {
                -1
            } else {
                1
            }
        };
        match self {
            RawEval::Pawns(v, pov) => {
                let v = v * f64::from(flip(pov));
                if depth == Some(1) && v == 0.0 {
                    Eval {
                        kind: EvalKind::Placeholder,
                        cp: None,
                        mate: None,
                    }
                } else if v.abs() > ABSURD_PAWNS || !v.is_finite() {
                    Eval {
                        kind: EvalKind::Absurd,
                        cp: None,
                        mate: None,
                    }
                } else {
                    Eval {
                        kind: EvalKind::Cp,
                        cp: Some((v * 100.0).round() as i32),
                        mate: None,
                    }
                }
            }
            // In i64: `M2147483647` or `#-2147483648` must not overflow.
            RawEval::MatePlies(n, pov) => {
                // Plies to full moves, rounding up: M5 (mate on our 3rd move) -> 3.
                let n = i64::from(n);
                let moves = (n.abs() + 1) / 2;
                Self::mate(n.signum() * moves * i64::from(flip(pov)))
            }
            RawEval::MateMoves(n, pov) => Self::mate(i64::from(n) * i64::from(flip(pov))),
        }
    }

    fn mate(n: i64) -> Eval {
        match i16::try_from(n) {
            Ok(n) => Eval {
                kind: EvalKind::Mate,
                cp: None,
                mate: Some(n),
            },
            // Not clamped to the column: garbage, as an eval beyond 1000 pawns.
            Err(_) => Eval {
                kind: EvalKind::Absurd,
                cp: None,
                mate: None,
            },
        }
    }
}
