//! Parsing and validating one game: the [`movetext`](crate::movetext) lexer
//! cuts the movetext into words and comments, shakmaty checks every move, the
//! comment parser reads each move's eval, and the rows go to a [`Sink`] as
//! borrowed records (or one reject record).
//!
//! Every word of the movetext is a move (SAN, long algebraic or UCI) or the
//! game is rejected naming it: no token is dropped without a word.

use std::borrow::Cow;

use sha2::{Digest, Sha256};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus, Suffix};
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, Move, Position, Rank, Role, Square,
    attacks,
};

use crate::comment::{self, Dialect, EvalKind, MoveComment};
use crate::movetext::{Lexer, Notation, Token, notation, result_of};
use crate::sink::{GameRecord, MoveRecord, RejectRecord, Sink};
use crate::split::{Batch, GameSpan};
use crate::tags::{self, decode, parse_tags};

/// What the ingest keeps of each game.
#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    /// Keep the `pv` column (the largest one).
    pub keep_pv: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { keep_pv: true }
    }
}

/// Identifies the input a batch came from.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub name: &'a str,
    /// The input's sha256 (hex), or `None` while it is being hashed: the
    /// rows then carry the game number as `game_id` and an empty
    /// `source_sha256`, for the caller to replace (see [`game_id`]).
    pub sha256: Option<&'a str>,
}

/// Stable game id: the first 63 bits of sha256(input sha256 ‖ game number).
///
/// It depends only on the input's content and the game's position in it, so it
/// is the same whatever `--jobs`, path or dataset.
pub fn game_id(sha256_hex: &str, number: u32) -> i64 {
    let mut h = Sha256::new();
    h.update(sha256_hex.as_bytes());
    h.update(number.to_le_bytes());
    let d = h.finalize();
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[..8]);
    (u64::from_be_bytes(b) >> 1) as i64
}

/// Counts from one batch, for progress and the manifest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub rejects: u64,
    pub plies: u64,
    pub unparsed_comments: u64,
    /// Inputs that ended early (their last game is among the rejects).
    pub truncated: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.games += o.games;
        self.rejects += o.rejects;
        self.plies += o.plies;
        self.unparsed_comments += o.unparsed_comments;
        self.truncated += o.truncated;
    }
}

/// Parses every game of a batch into `out`.
pub fn parse_batch<S: Sink + ?Sized>(
    batch: &Batch,
    src: Source,
    opts: ParseOptions,
    out: &mut S,
) -> Counts {
    let mut st = GameState::new(opts);
    let mut counts = Counts::default();
    for (i, g) in batch.games.iter().enumerate() {
        let id = match src.sha256 {
            Some(sha) => game_id(sha, g.number),
            None => i64::from(g.number),
        };
        let tags = parse_tags(batch.header(g));
        let result = st.run(batch, g, &tags);
        let last = i + 1 == batch.games.len();
        // A plain input cut short ends inside its last game: before the
        // game's result (a stub's or another reject's reason stands).
        let unfinished = (batch.ends_input && last && result.is_ok() && st.result.is_none())
            .then(|| "no result before the end of the input".to_string());
        let cut = batch.truncated.clone().filter(|_| last).or(unfinished);
        if let Some(err) = cut {
            // Whatever the cut game's bytes say, they are not all of it.
            out.playable(&st.records(id));
            counts.rejects += 1;
            counts.truncated += 1;
            let end = g.end - g.start;
            let reason = format!(
                "truncated input: {err} (the input ends at byte {})",
                g.offset + end as u64
            );
            let line = batch.line_at(g, end);
            write_reject(id, src, g, line, &tags, st.plies(), &reason, out);
            continue;
        }
        match result {
            Ok(()) => {
                counts.games += 1;
                counts.plies += st.moves.len() as u64;
                counts.unparsed_comments += u64::from(st.unparsed);
                out.moves(&st.records(id));
                st.write_game(id, src, g, &tags, out);
            }
            Err(fail) => {
                if fail.at_move {
                    out.playable(&st.records(id));
                }
                counts.rejects += 1;
                let line = batch.line_at(g, fail.pos_in_game);
                write_reject(id, src, g, line, &tags, st.plies(), &fail.reason, out);
            }
        }
    }
    counts
}

#[inline]
fn tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[allow(clippy::too_many_arguments)]
fn write_reject<S: Sink + ?Sized>(
    id: i64,
    src: Source,
    g: &GameSpan,
    line: u32,
    tags: &[(String, String)],
    plies: u32,
    reason: &str,
    out: &mut S,
) {
    out.reject(&RejectRecord {
        game_id: id,
        source_file: src.name,
        source_sha256: src.sha256.unwrap_or_default(),
        game_number: g.number,
        line,
        byte_offset: g.offset as i64,
        event: tag(tags, "Event"),
        round: tag(tags, "Round"),
        white: tag(tags, "White"),
        black: tag(tags, "Black"),
        ply_reached: plies,
        reason,
    });
}

/// Why a game was rejected, and where (byte position inside the game).
#[derive(Debug)]
struct Failure {
    reason: String,
    pos_in_game: usize,
    /// A move that cannot be played: the plies before it are legal.
    at_move: bool,
}

/// A byte range in [`GameState::arena`].
#[derive(Debug, Clone, Copy)]
struct Span(u32, u32);

/// One validated ply, with text fields kept in the game's arena until the game
/// is known to be good.
#[derive(Debug, Clone, Copy)]
struct MoveRec {
    move_number: u32,
    white: bool,
    san: Span,
    uci: Span,
    /// Polyglot key of the position after the move.
    key: u64,
    capture: bool,
    check: bool,
    mate: bool,
    promotion: Option<Role>,
    book: bool,
    dialect: Option<Dialect>,
    eval_kind: Option<EvalKind>,
    eval_cp: Option<i32>,
    mate_in: Option<i16>,
    eval_raw: Option<Span>,
    depth: Option<i16>,
    seldepth: Option<i16>,
    nodes: Option<i64>,
    nps: Option<i64>,
    time_ms: Option<i64>,
    time_left_ms: Option<i64>,
    tb_hits: Option<i64>,
    hash_full: Option<f32>,
    ponder_hit: Option<f32>,
    latency_ms: Option<i64>,
    expected_reply: Option<Span>,
    pv: Option<Span>,
    r50: Option<i16>,
    rd: Option<i16>,
    rr: Option<i16>,
    mb: Option<Span>,
    wdl: Option<Span>,
    extra: Option<Span>,
    material: [[u8; 5]; 2],
    halfmoves: u32,
    repetition: u32,
    dead: bool,
}

/// Per-game parse state, reused across the games of a batch.
struct GameState {
    opts: ParseOptions,
    pos: Chess,
    mode: CastlingMode,
    variant_name: &'static str,
    /// Chess960 read from the FEN's castling rights, not from a Variant tag.
    variant_inferred: bool,
    start_fen: Option<String>,
    /// Zobrist hashes since the last irreversible move (for repetition counts).
    history: Vec<u64>,
    hash: u64,
    /// Polyglot key of the start position.
    start_key: u64,
    moves: Vec<MoveRec>,
    arena: String,
    extra: String,
    pregame: Option<String>,
    variations: u32,
    unparsed: u32,
    /// The result the movetext wrote (`1-0`, `½-½`, `*` …), in the arena.
    result: Option<Span>,
    /// Text after that result, trimmed (kept in `other_tags`), in the arena.
    after_result: Option<Span>,
}

impl GameState {
    fn new(opts: ParseOptions) -> Self {
        GameState {
            opts,
            pos: Chess::default(),
            mode: CastlingMode::Standard,
            variant_name: "standard",
            variant_inferred: false,
            start_fen: None,
            history: Vec::with_capacity(128),
            hash: 0,
            start_key: 0,
            moves: Vec::with_capacity(256),
            arena: String::with_capacity(1 << 16),
            extra: String::new(),
            pregame: None,
            variations: 0,
            unparsed: 0,
            result: None,
            after_result: None,
        }
    }

    fn reset(&mut self, tags: &[(String, String)]) -> Result<(), String> {
        self.moves.clear();
        self.arena.clear();
        self.pregame = None;
        self.variations = 0;
        self.unparsed = 0;
        (self.result, self.after_result) = (None, None);
        self.history.clear();
        let variant = tag(tags, "Variant")
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        self.variant_inferred = false;
        (self.mode, self.variant_name) = match variant.as_str() {
            "" | "standard" | "normal" | "from position" => (CastlingMode::Standard, "standard"),
            "chess960" | "fischerandom" | "fischer random" | "frc" | "960" => {
                (CastlingMode::Chess960, "chess960")
            }
            other => {
                return Err(format!(
                    "unsupported variant \"{}\"",
                    in_reason(other.as_bytes())
                ));
            }
        };
        self.start_fen = tag(tags, "FEN").map(|f| f.trim().to_string());
        self.pos = match &self.start_fen {
            None if self.mode == CastlingMode::Chess960 => {
                return Err("Chess960 game without a FEN tag".into());
            }
            None => Chess::default(),
            Some(fen) => {
                let parsed: Fen = fen
                    .parse()
                    .map_err(|e| format!("invalid FEN \"{}\": {e}", in_reason(fen.as_bytes())))?;
                match parsed.clone().into_position(self.mode) {
                    Ok(pos) => pos,
                    // Archives omit the Variant tag of Chess960 games: castling
                    // rights that name rooks off the corners are legal only there.
                    Err(e) if self.mode == CastlingMode::Standard => {
                        let pos = parsed.into_position(CastlingMode::Chess960).map_err(|_| {
                            format!(
                                "illegal FEN position \"{}\": {e}",
                                in_reason(fen.as_bytes())
                            )
                        })?;
                        (self.mode, self.variant_name) = (CastlingMode::Chess960, "chess960");
                        self.variant_inferred = true;
                        pos
                    }
                    Err(e) => {
                        return Err(format!(
                            "illegal FEN position \"{}\": {e}",
                            in_reason(fen.as_bytes())
                        ));
                    }
                }
            }
        };
        self.hash = self.pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        self.start_key = polyglot_key(&self.pos, self.hash);
        self.history.push(self.hash);
        Ok(())
    }

    fn run(
        &mut self,
        batch: &Batch,
        g: &GameSpan,
        tags: &[(String, String)],
    ) -> Result<(), Failure> {
        let at_start = |reason| Failure {
            reason,
            pos_in_game: 0,
            at_move: false,
        };
        self.reset(tags).map_err(at_start)?;
        let movetext = batch.movetext(g);
        let header_len = g.movetext - g.start;
        if movetext.iter().all(u8::is_ascii_whitespace) && tag(tags, "Result") == Some("?") {
            return Err(at_start(
                "header-only stub: no movetext and Result \"?\"".into(),
            ));
        }
        let mut lexer = Lexer::new(movetext);
        for (at, token) in lexer.by_ref() {
            let fail = |reason| Failure {
                reason,
                pos_in_game: header_len + at,
                at_move: false,
            };
            match token.map_err(|e| fail(e.to_string()))? {
                Token::Word(w) => self.play(w).map_err(|reason| Failure {
                    at_move: true,
                    ..fail(reason)
                })?,
                Token::Comment(c) => self.on_comment(c),
                Token::Stray(t) => self.keep_text(&decode(t)),
                Token::Variation => {
                    self.variations = self
                        .variations
                        .checked_add(1)
                        .ok_or_else(|| fail(format!("more than {} variations", u32::MAX)))?;
                }
            }
        }
        if tags.is_empty() && self.moves.is_empty() {
            return Err(at_start("no tags and no moves: not a PGN game".into()));
        }
        // The result ends the game; what a writer or a download put after it
        // (a site's footer, a second result) is kept with the game's tags.
        if let Some(r) = lexer.result() {
            self.result = Some(self.put(&tags::decode(r)));
            let rest = lexer.rest().trim_ascii();
            if !rest.is_empty() {
                self.after_result = Some(self.put(&tags::decode(rest)));
            }
        }
        Ok(())
    }

    fn put(&mut self, s: &str) -> Span {
        let start = self.arena.len() as u32;
        self.arena.push_str(s);
        Span(start, self.arena.len() as u32)
    }

    fn put_opt(&mut self, s: Option<&str>) -> Option<Span> {
        s.map(|s| self.put(s))
    }

    /// The plies so far. They fit u32: 2^32 of them would take over a
    /// terabyte of [`MoveRec`] first (see [`MoveRecord::ply`]).
    fn plies(&self) -> u32 {
        self.moves.len() as u32
    }

    #[inline]
    fn get(&self, s: Span) -> &str {
        &self.arena[s.0 as usize..s.1 as usize]
    }

    /// Plays a word of the movetext, or says why it cannot be played.
    fn play(&mut self, word: &[u8]) -> Result<(), String> {
        let mover = self.pos.turn();
        let move_number = self.pos.fullmoves().get();
        let dots = if mover == Color::White { "." } else { "..." };
        let written_as = || String::from_utf8_lossy(word);
        let failed = |what: &str| format!("{what} {move_number}{dots}{}", written_as());
        let (m, written) = match notation(word) {
            None => {
                return Err(format!(
                    "unreadable token \"{}\" at {move_number}{dots}",
                    in_reason(word)
                ));
            }
            Some(Notation::San(san)) => {
                match direct_move(&self.pos, san).map_or_else(|| san.to_move(&self.pos), Ok) {
                    Ok(m) => (m, Some(san)),
                    Err(SanError::AmbiguousSan) => return Err(failed("ambiguous move")),
                    Err(SanError::IllegalSan) => return Err(failed("illegal move")),
                }
            }
            Some(Notation::Uci(uci)) => match uci.to_move(&self.pos) {
                Ok(m) => (m, None),
                Err(_) => return Err(failed("illegal move")),
            },
        };
        let next_hash = self.pos.update_zobrist_hash::<Zobrist64>(
            Zobrist64(self.hash),
            m,
            EnPassantMode::Legal,
        );
        // SAN written without disambiguation (a pawn's capture file aside) is
        // already canonical; any other notation is rebuilt.
        let san = match written {
            Some(
                san @ (San::Normal {
                    role: Role::Pawn,
                    rank: None,
                    ..
                }
                | San::Normal {
                    file: None,
                    rank: None,
                    ..
                }
                | San::Castle(_)),
            ) => san,
            _ => San::from_move(&self.pos, m),
        };
        self.pos.play_unchecked(m);
        // Cheaper than Suffix::from_position, which generates every legal move.
        let suffix = if self.pos.is_check() {
            Some(if self.pos.is_checkmate() {
                Suffix::Checkmate
            } else {
                Suffix::Check
            })
        } else {
            None
        };
        self.hash = match next_hash {
            Some(h) => h.0,
            None => self.pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0,
        };
        let halfmoves = self.pos.halfmoves();
        if halfmoves == 0 {
            self.history.clear();
        }
        self.history.push(self.hash);
        let repetition = self.history.iter().filter(|&&h| h == self.hash).count();
        let board = self.pos.board();
        let side = |c: Color| {
            let m = board.material_side(c);
            [m.pawn, m.knight, m.bishop, m.rook, m.queen]
        };
        let material = [side(Color::White), side(Color::Black)];
        let minors_only = board.occupied().count() <= 3
            && (board.pawns() | board.rooks() | board.queens()).is_empty()
            && (board.knights() | board.bishops()).count() <= 1;
        let start = self.arena.len() as u32;
        SanPlus { san, suffix }.append_to_string(&mut self.arena);
        let san_span = Span(start, self.arena.len() as u32);
        m.to_uci(self.mode).append_to_string(&mut self.arena);
        let uci_span = Span(san_span.1, self.arena.len() as u32);
        self.moves.push(MoveRec {
            move_number,
            white: mover == Color::White,
            san: san_span,
            uci: uci_span,
            key: polyglot_key(&self.pos, self.hash),
            capture: m.is_capture(),
            check: suffix.is_some(),
            mate: suffix == Some(Suffix::Checkmate),
            promotion: m.promotion(),
            book: false,
            dialect: None,
            eval_kind: None,
            eval_cp: None,
            mate_in: None,
            eval_raw: None,
            depth: None,
            seldepth: None,
            nodes: None,
            nps: None,
            time_ms: None,
            time_left_ms: None,
            tb_hits: None,
            hash_full: None,
            ponder_hit: None,
            latency_ms: None,
            expected_reply: None,
            pv: None,
            r50: None,
            rd: None,
            rr: None,
            mb: None,
            wdl: None,
            extra: None,
            material,
            halfmoves,
            // Counted in the positions since the last irreversible move: it
            // fits u32 as the plies do.
            repetition: repetition as u32,
            dead: minors_only,
        });
        Ok(())
    }

    /// Text kept as it is (a stray `}`, a second comment): after the last
    /// move's `comment_extra`, or before the first move with the pregame
    /// comment.
    fn keep_text(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let Some(last) = self.moves.len().checked_sub(1) else {
            match &mut self.pregame {
                Some(p) => {
                    p.push(' ');
                    p.push_str(text);
                }
                None => self.pregame = Some(text.to_string()),
            }
            return;
        };
        let joined = match self.moves[last].extra {
            Some(prev) => format!("{} {}", self.get(prev), text),
            None => text.to_string(),
        };
        let span = self.put(&joined);
        self.moves[last].extra = Some(span);
    }

    fn on_comment(&mut self, bytes: &[u8]) {
        let text = decode(bytes);
        let Some(last) = self.moves.len().checked_sub(1) else {
            return self.keep_text(&text);
        };
        if self.moves[last].dialect.is_some() || self.moves[last].book {
            // A second comment on the same move: keep its text, do not re-read it.
            return self.keep_text(&text);
        }
        let mut extra = std::mem::take(&mut self.extra);
        extra.clear();
        let c = comment::parse(&text, &mut extra);
        if c.dialect.is_none() && !c.book && !extra.is_empty() {
            self.unparsed += 1;
        }
        self.apply(last, &c);
        self.keep_text(&extra);
        self.extra = extra;
    }

    fn apply(&mut self, i: usize, c: &MoveComment) {
        let eval = c.eval.map(|e| e.normalize(self.moves[i].white, c.depth));
        let eval_raw = self.put_opt(c.eval_raw);
        let expected_reply = self.put_opt(c.expected_reply);
        let pv = if self.opts.keep_pv {
            self.put_opt(c.pv)
        } else {
            None
        };
        let mb = self.put_opt(c.mb);
        let wdl = self.put_opt(c.wdl);
        let r = &mut self.moves[i];
        r.book = c.book;
        r.dialect = c.dialect;
        r.eval_kind = eval.map(|e| e.kind);
        r.eval_cp = eval.and_then(|e| e.cp);
        r.mate_in = eval.and_then(|e| e.mate);
        r.eval_raw = eval_raw;
        r.depth = c.depth;
        r.seldepth = c.seldepth;
        r.nodes = c.nodes;
        r.nps = c.nps;
        r.time_ms = c.time_ms;
        r.time_left_ms = c.time_left_ms;
        r.tb_hits = c.tb_hits;
        r.hash_full = c.hash_full;
        r.ponder_hit = c.ponder_hit;
        r.latency_ms = c.latency_ms;
        r.expected_reply = expected_reply;
        r.pv = pv;
        r.r50 = c.r50;
        r.rd = c.rd;
        r.rr = c.rr;
        r.mb = mb;
        r.wdl = wdl;
    }

    /// The game's plies so far as records.
    fn records(&self, id: i64) -> Vec<MoveRecord<'_>> {
        let s = |sp: Option<Span>| sp.map(|sp| self.get(sp));
        let mut rows = Vec::with_capacity(self.moves.len());
        for (ply, r) in (1..).zip(&self.moves) {
            let mut balance = 0i16;
            for (side, sign) in [(0, 1i16), (1, -1)] {
                for (k, &n) in r.material[side].iter().enumerate() {
                    balance += sign * i16::from(n) * PIECE_VALUES[k];
                }
            }
            rows.push(MoveRecord {
                game_id: id,
                ply,
                move_number: r.move_number,
                white: r.white,
                san: self.get(r.san),
                uci: self.get(r.uci),
                key: r.key,
                is_capture: r.capture,
                is_check: r.check,
                is_mate: r.mate,
                promotion: r.promotion.map(Role::char),
                is_book: r.book,
                eval_kind: r.eval_kind,
                eval_cp: r.eval_cp,
                mate: r.mate_in,
                eval_raw: s(r.eval_raw),
                depth: r.depth,
                seldepth: r.seldepth,
                nodes: r.nodes,
                nps: r.nps,
                time_ms: r.time_ms,
                time_left_ms: r.time_left_ms,
                tb_hits: r.tb_hits,
                hash_full: r.hash_full,
                ponder_hit: r.ponder_hit,
                latency_ms: r.latency_ms,
                expected_reply: s(r.expected_reply),
                pv: s(r.pv),
                r50: r.r50,
                rd: r.rd,
                rr: r.rr,
                mb: s(r.mb),
                wdl: s(r.wdl),
                comment_extra: s(r.extra),
                material: r.material,
                material_balance: balance,
                halfmove_clock: r.halfmoves,
                repetition: r.repetition,
                dead_material: r.dead,
            });
        }
        rows
    }

    fn write_game<S: Sink + ?Sized>(
        &self,
        id: i64,
        src: Source,
        g: &GameSpan,
        tags: &[(String, String)],
        out: &mut S,
    ) {
        let t = |name| tag(tags, name);
        let tc = t("TimeControl").and_then(tags::parse_time_control);
        let mut per_dialect = [0u32; Dialect::ALL.len()];
        let mut evals = 0u32;
        for r in &self.moves {
            if let Some(d) = r.dialect {
                per_dialect[d as usize] += 1;
            }
            if matches!(r.eval_kind, Some(EvalKind::Cp | EvalKind::Mate)) {
                evals += 1;
            }
        }
        let dominant = (0..per_dialect.len())
            .filter(|&i| per_dialect[i] > 0)
            .max_by_key(|&i| (per_dialect[i], std::cmp::Reverse(i)));
        // A typed tag whose column cannot hold its value (an impossible or
        // partial date, an Elo beyond i32) keeps its text with the others.
        // A tag written again keeps its earlier values as `Name #1`, `Name
        // #2` … (its column holds the last, as before).
        let mut others: Vec<(Cow<str>, &str)> = Vec::new();
        for (i, (k, v)) in tags.iter().enumerate() {
            if tags[i + 1..].iter().any(|(l, _)| l == k) {
                let earlier = tags[..i].iter().filter(|(e, _)| e == k).count();
                others.push((Cow::Owned(format!("{k} #{}", earlier + 1)), v));
                continue;
            }
            let keep = match k.as_str() {
                // Read as a variant (`normal`, `From Position` …): its text too.
                "Variant" => !matches!(v.as_str(), "" | "standard" | "chess960"),
                "Date" => tags::parse_date(v).is_none() && !tags::is_unknown(v),
                "WhiteElo" | "BlackElo" | "PlyCount" => {
                    tags::parse_int(v).is_none() && !tags::is_unknown(v)
                }
                k => !KNOWN_TAGS.contains(&k),
            };
            if keep {
                others.push((Cow::Borrowed(k), v));
            }
        }
        // The movetext's result: the result where no Result tag says one,
        // kept beside a tag that says another; text after it kept too.
        let tag_result = t("Result").filter(|r| !tags::is_unknown(r));
        let written = self.result.map(|r| self.get(r));
        let canonical = |r: &str| result_of(r.trim().as_bytes());
        let result = match (tag_result, written.and_then(canonical)) {
            (None, Some(r)) => Some(r),
            (Some(tag), Some(r)) if canonical(tag) != Some(r) => {
                others.push((Cow::Borrowed("movetext result"), written.unwrap_or(r)));
                Some(tag)
            }
            (tag, _) => tag.or(t("Result")),
        };
        if let Some(a) = self.after_result {
            others.push((Cow::Borrowed("text after the result"), self.get(a)));
        }
        let other_tags = (!others.is_empty()).then(|| tags::json_object(&others));
        out.game(&GameRecord {
            game_id: id,
            source_file: src.name,
            source_sha256: src.sha256.unwrap_or_default(),
            game_number: g.number,
            byte_offset: g.offset as i64,
            line: g.line,
            event: t("Event"),
            site: t("Site"),
            date: t("Date").and_then(tags::parse_date),
            round: t("Round"),
            white: t("White"),
            black: t("Black"),
            result,
            white_elo: t("WhiteElo").and_then(tags::parse_int),
            black_elo: t("BlackElo").and_then(tags::parse_int),
            time_control: t("TimeControl"),
            tc_base_s: tc.map(|t| t.0),
            tc_increment_s: tc.map(|t| t.1),
            eco: t("ECO"),
            opening: t("Opening"),
            termination: t("Termination"),
            termination_details: t("TerminationDetails"),
            ply_count_tag: t("PlyCount").and_then(tags::parse_int),
            start_fen: self.start_fen.as_deref(),
            start_key: self.start_key,
            variant: self.variant_name,
            variant_inferred: self.variant_inferred,
            engine_options: self.pregame.as_deref(),
            plies: self.plies(),
            variations_skipped: self.variations,
            dialect: dominant.map(|i| Dialect::ALL[i]),
            evals,
            unparsed_comments: self.unparsed,
            other_tags: other_tags.as_deref(),
        });
    }
}

/// The move of a common SAN read straight from the board, or `None` for
/// [`San::to_move`] to decide: a piece move or a pawn push, or a pawn's
/// capture of a piece, that one piece of the side to move can make. It is
/// legal when no piece of the other side attacks the king afterwards (the
/// king's new square, when it moves; a piece captured on `to` attacks
/// nothing). Whenever it answers, `to_move` answers the same: shakmaty's
/// candidates are that one piece's move, kept when it is legal. It skips
/// shakmaty's move list (256 moves, copied on return).
#[inline]
fn direct_move(pos: &Chess, san: San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    // A capture must take a piece of the other side, a quiet move land on
    // an empty square (en passant, illegal or odd SAN: shakmaty decides).
    if capture != pos.them().contains(to) || (!capture && occupied.contains(to)) {
        return None;
    }
    let from = if role == Role::Pawn {
        // The last rank needs a piece to promote to, no other rank takes one.
        let last = to.rank() == us.fold_wb(Rank::Eighth, Rank::First);
        let promotes = matches!(
            promotion,
            Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        );
        if rank.is_some() || promotes != last || (promotion.is_some() && !promotes) {
            return None;
        }
        let back = us.fold_wb(-8, 8);
        let from = if capture {
            let from = Square::from_coords(file?, to.rank()).offset(back)?;
            if from.file().distance(to.file()) != 1 {
                return None;
            }
            from
        } else {
            if file.is_some_and(|f| f != to.file()) {
                return None;
            }
            let one = to.offset(back)?;
            if occupied.contains(one) || to.rank() != us.fold_wb(Rank::Fourth, Rank::Fifth) {
                one
            } else {
                one.offset(back)?
            }
        };
        pos.our(Role::Pawn).contains(from).then_some(from)?
    } else {
        if promotion.is_some() {
            return None;
        }
        let mut from = attacks::attacks(to, role.of(us), occupied) & pos.our(role);
        if let Some(f) = file {
            from &= Bitboard::from(f);
        }
        if let Some(r) = rank {
            from &= Bitboard::from(r);
        }
        from.single_square()?
    };
    let to_bb = Bitboard::from(to);
    let after = (occupied ^ Bitboard::from(from)) | to_bb;
    let king = if role == Role::King {
        to
    } else {
        board.king_of(us)?
    };
    if (board.attacks_to(king, !us, after) & !to_bb).any() {
        return None;
    }
    Some(Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    })
}

/// The Polyglot key of `pos` from its hash with legal en passant squares
/// only (that of repetitions): Polyglot also counts the square when the
/// capture is illegal (a pinned pawn).
#[inline]
fn polyglot_key(pos: &Chess, hash: u64) -> u64 {
    match (
        pos.ep_square(EnPassantMode::PseudoLegal),
        pos.ep_square(EnPassantMode::Legal),
    ) {
        (Some(sq), None) => hash ^ Zobrist64::zobrist_for_en_passant_file(sq.file()).0,
        _ => hash,
    }
}

/// Pawn-unit values of P N B R Q.
pub const PIECE_VALUES: [i16; 5] = [1, 3, 3, 5, 9];

/// Tags stored in their own columns (or consumed: SetUp, Variant).
const KNOWN_TAGS: [&str; 18] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "TimeControl",
    "ECO",
    "Opening",
    "Termination",
    "TerminationDetails",
    "PlyCount",
    "FEN",
    "SetUp",
    "Variant",
];

/// Text of the input (a token, a FEN, a variant) as a reject's reason
/// shows it: control bytes escaped (`\0`), cut after `SHOWN_CHARS` (100)
/// characters (a run of garbage without a space is one token, megabytes
/// long).
pub fn in_reason(word: &[u8]) -> String {
    let text = String::from_utf8_lossy(word);
    let mut shown: String = text.chars().take(SHOWN_CHARS).collect();
    let cut = shown.len() < text.len();
    shown = shown.escape_debug().collect();
    if cut {
        shown.push_str(&format!("… ({} bytes)", word.len()));
    }
    shown
}

/// Characters of the input a reason shows: any FEN (at most about 90).
const SHOWN_CHARS: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what a sink is told, in order.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Sink for Log {
        fn mv(&mut self, m: &MoveRecord<'_>) {
            self.0.push(format!("move {} {} {}", m.ply, m.san, m.uci));
        }
        fn game(&mut self, g: &GameRecord<'_>) {
            self.0.push(format!("game {} {}", g.game_number, g.plies));
        }
        fn reject(&mut self, r: &RejectRecord<'_>) {
            self.0.push(format!(
                "reject {} at ply {}: {}",
                r.game_number, r.ply_reached, r.reason
            ));
        }
    }

    fn parse(pgn: &[u8], out: &mut impl Sink) -> Counts {
        let batch = crate::split::Splitter::new(pgn)
            .next_batch(usize::MAX)
            .unwrap()
            .unwrap();
        let src = Source {
            name: "t",
            sha256: Some("00"),
        };
        parse_batch(&batch, src, ParseOptions::default(), out)
    }

    fn run(pgn: &[u8]) -> (Counts, Vec<String>) {
        let mut log = Log::default();
        let c = parse(pgn, &mut log);
        (c, log.0)
    }

    #[test]
    fn sink_gets_moves_then_their_game_and_rejects_alone() {
        let pgn = b"[Event \"a\"]\n\n1. e4 e7 *\n\n[Event \"b\"]\n\n1. e8=Q *\n\n[Event \"c\"]\n\n1. Nf3 {+0.1/2 1s} d5 1-0\n";
        let (c, log) = run(pgn);
        assert_eq!(
            log,
            [
                "reject 1 at ply 1: illegal move 1...e7",
                "reject 2 at ply 0: illegal move 1.e8=Q",
                "move 1 Nf3 g1f3",
                "move 2 d5 d7d5",
                "game 3 2",
            ]
        );
        assert_eq!((c.games, c.rejects, c.plies), (1, 2, 2));
    }

    /// Issue 29: a word of the movetext is a move, in SAN, long algebraic or
    /// UCI (the SAN and UCI columns as python-chess gives them), or the
    /// game's reject names it and the plies before it.
    #[test]
    fn every_word_is_a_move_or_names_the_reject() {
        let pgn = concat!(
            "[Event \"a\"]\n[FEN \"7k/3P4/7K/8/8/8/8/8 w - - 6 55\"]\n\nd7d8R 1-0\n\n",
            "[Event \"b\"]\n\n1. e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 *\n\n",
            "[Event \"c\"]\n\n1. e4 e5 2. Nf3 foo Nc6 *\n\n",
            "[Event \"d\"]\n\n1. e2-e4 d7-d5 2. e4xd5 Ng8-f6 3. 0-0 *\n\n",
            "[Event \"e\"]\n\n1. e4 {a {b} c} e5 (1... d5 2. exd5) 2. Qh5 d6?! 3. Bc4 Nf6 4. Qxf7# 1-0\n",
        );
        let (c, log) = run(pgn.as_bytes());
        let moves = |g: &str| -> Vec<String> {
            g.split(' ')
                .enumerate()
                .map(|(i, m)| {
                    let (san, uci) = m.split_once('/').unwrap();
                    format!("move {} {san} {uci}", i + 1)
                })
                .collect()
        };
        let mut want = moves("d8=R#/d7d8r");
        want.push("game 1 1".into());
        want.extend(moves(
            "e4/e2e4 e5/e7e5 Nf3/g1f3 Nc6/b8c6 Bc4/f1c4 Nf6/g8f6 O-O/e1g1",
        ));
        want.push("game 2 7".into());
        want.push("reject 3 at ply 3: unreadable token \"foo\" at 2...".into());
        want.push("reject 4 at ply 4: illegal move 3.0-0".into());
        want.extend(moves(
            "e4/e2e4 e5/e7e5 Qh5/d1h5 d6/d7d6 Bc4/f1c4 Nf6/g8f6 Qxf7#/h5f7",
        ));
        want.push("game 5 7".into());
        assert_eq!(log, want);
        assert_eq!((c.games, c.rejects, c.plies), (3, 2, 15));
    }

    /// A reject's reason shows an unreadable token readably: a control byte
    /// escaped, a run of garbage cut to 100 characters with its length.
    #[test]
    fn an_unreadable_token_is_shown_escaped_and_cut() {
        let long = "Z".repeat(100_000);
        let pgn =
            format!("[Event \"a\"]\n\n1. e4 e5\u{0} 2. Nf3 *\n\n[Event \"b\"]\n\n1. e4 {long} *\n");
        let (_, log) = run(pgn.as_bytes());
        assert_eq!(
            log,
            [
                "reject 1 at ply 1: unreadable token \"e5\\0\" at 1...".to_string(),
                format!(
                    "reject 2 at ply 1: unreadable token \"{}… (100000 bytes)\" at 1...",
                    &long[..100]
                ),
            ]
        );
    }

    /// The fields of a game a user audit found lost or bent, as a sink sees them.
    #[derive(Default)]
    struct Fields(Vec<String>);

    impl Sink for Fields {
        fn mv(&mut self, m: &MoveRecord<'_>) {
            if m.time_left_ms.is_some() || m.comment_extra.is_some() {
                self.0.push(format!(
                    "  ply {} clock {:?} extra {:?}",
                    m.ply, m.time_left_ms, m.comment_extra
                ));
            }
        }
        fn game(&mut self, g: &GameRecord<'_>) {
            self.0.push(format!(
                "game {} {:?} {:?}-{:?} {:?} plies {} date {:?} other {:?}",
                g.game_number, g.event, g.white, g.black, g.result, g.plies, g.date, g.other_tags
            ));
        }
        fn reject(&mut self, r: &RejectRecord<'_>) {
            self.0
                .push(format!("reject {}: {}", r.game_number, r.reason));
        }
    }

    fn fields(pgn: &[u8]) -> (Counts, Vec<String>) {
        let mut out = Fields::default();
        let c = parse(pgn, &mut out);
        (c, out.0)
    }

    /// Each input of the audit (2026-11-28): nothing lost, nothing bent.
    #[test]
    fn every_field_of_odd_writers_is_kept() {
        // Lines ending in a lone CR (classic Mac OS): two games, not one empty.
        let (c, log) = fields(b"[Event \"CR1\"]\r[White \"A\"]\r[Result \"1-0\"]\r\r1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\r[Event \"CR2\"]\r\r1. f3 e5 2. g4 Qh4# 0-1\r");
        assert_eq!((c.games, c.plies), (2, 11), "{log:?}");
        assert_eq!(
            log[0],
            r#"game 1 Some("CR1") Some("A")-None Some("1-0") plies 7 date None other None"#
        );
        // Several tags on a line, and movetext after them on theirs.
        let (c, log) = fields(
            b"[Event \"X\"] [White \"A\"] [Black \"B\"] [Result \"0-1\"] 1. f3 e5 2. g4 Qh4# 0-1\n",
        );
        assert_eq!((c.games, c.plies), (1, 4), "{log:?}");
        assert_eq!(
            log[0],
            r#"game 1 Some("X") Some("A")-Some("B") Some("0-1") plies 4 date None other None"#
        );
        // The movetext's result: the result without a Result tag, beside a
        // tag that says another; text after it (a site's footer) kept, the
        // game not rejected for it.
        let (c, log) = fields(concat!(
            "[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n",
            "[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n\n",
            "[Event \"c\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\nDownloaded from example.com\n\n",
            "[Event \"d\"]\n[Result \"*\"]\n\n1. e4 e5 1-0 0-1 2. Nf3\n",
        ).as_bytes());
        assert_eq!((c.games, c.rejects), (4, 0), "{log:?}");
        assert_eq!(
            log[0],
            r#"game 1 Some("a") None-None Some("0-1") plies 4 date None other None"#
        );
        assert_eq!(
            log[1],
            r#"game 2 Some("b") None-None Some("1-0") plies 2 date None other Some("{\"movetext result\":\"0-1\"}")"#
        );
        assert_eq!(
            log[2],
            r#"game 3 Some("c") None-None Some("1-0") plies 2 date None other Some("{\"text after the result\":\"Downloaded from example.com\"}")"#
        );
        assert_eq!(
            log[3],
            r#"game 4 Some("d") None-None Some("*") plies 2 date None other Some("{\"movetext result\":\"1-0\",\"text after the result\":\"0-1 2. Nf3\"}")"#
        );
        // A tag written twice: the last in its column, the earlier kept; a
        // variant spelt otherwise kept; year 0 kept as text; `e.p.` read.
        let (_, log) = fields(b"[Event \"e\"]\n[White \"First\"]\n[White \"Second\"]\n[Date \"0000.01.01\"]\n[Variant \"From Position\"]\n[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n\n1. exd6 e.p. 1-0\n");
        assert_eq!(
            log[0],
            r#"game 1 Some("e") Some("Second")-None Some("1-0") plies 1 date None other Some("{\"Date\":\"0000.01.01\",\"Variant\":\"From Position\",\"White #1\":\"First\"}")"#
        );
        // A clock that is none keeps its text (its sign, minutes of 99).
        let (_, log) = fields(b"[Event \"f\"]\n\n1. e4 {[%clk -0:00:05]} e5 {[%clk 1:99:99]} 2. Nf3 {[%clk 0:01:30]} 1-0\n");
        assert_eq!(
            &log[..3],
            [
                r#"  ply 1 clock None extra Some("[%clk -0:00:05]")"#,
                r#"  ply 2 clock None extra Some("[%clk 1:99:99]")"#,
                r#"  ply 3 clock Some(90000) extra None"#,
            ]
        );
        // A `}` or `)` that closes nothing stays beside its move, with the
        // comment's own leftovers.
        let (c, log) = fields(b"[Event \"s\"]\n\n1. e4 } e5 {[%clk 0:01:30] x} ) 2. Nf3 1-0\n");
        assert_eq!((c.games, c.plies), (1, 3), "{log:?}");
        assert_eq!(
            &log[..2],
            [
                r#"  ply 1 clock None extra Some("}")"#,
                r#"  ply 2 clock Some(90000) extra Some("x )")"#,
            ]
        );
        // A plain input cut inside its last game (no result before the end):
        // a truncated input, the game a reject; a cut tag section too. A
        // header-only stub at the end stays a stub.
        for (pgn, n) in [
            (
                "[Event \"g\"]\n\n1. e4 e5 1-0\n\n[Event \"h\"]\n[PlyCount \"122\"]\n\n1. d4 d5 2. c4 {+0.2/20} ",
                2,
            ),
            ("[Event \"g\"]\n\n1. e4 e5 1-0\n\n[Event \"TC", 2),
        ] {
            let (c, log) = fields(pgn.as_bytes());
            assert_eq!((c.games, c.rejects, c.truncated), (1, 1, 1), "{log:?}");
            assert!(log[1].starts_with(&format!("reject {n}: truncated input: no result before the end of the input (the input ends at byte {})", pgn.len())), "{log:?}");
        }
        let (c, log) = fields(b"[Event \"g\"]\n\n1. e4 e5 1-0\n\n[Event \"i\"]\n[Result \"?\"]\n");
        assert_eq!((c.games, c.truncated), (1, 0), "{log:?}");
        assert_eq!(
            log[1],
            "reject 2: header-only stub: no movetext and Result \"?\""
        );
    }

    /// What a sink hears of rejected games: the plies a runner still plays
    /// (SAN), then the reject.
    #[derive(Default)]
    struct Playable(Vec<String>);

    impl Sink for Playable {
        fn mv(&mut self, _: &MoveRecord<'_>) {}
        fn game(&mut self, _: &GameRecord<'_>) {}
        fn playable(&mut self, plies: &[MoveRecord<'_>]) {
            let sans: Vec<&str> = plies.iter().map(|m| m.san).collect();
            self.0.push(format!("playable {}", sans.join(" ")));
        }
        fn reject(&mut self, r: &RejectRecord<'_>) {
            self.0
                .push(format!("reject {} plies {}", r.game_number, r.ply_reached));
        }
    }

    /// A move that cannot be played: the plies before it are playable (none
    /// when it is the first); a game cut before its result: all of them; a
    /// broken FEN: no call (no runner plays such a game).
    #[test]
    fn rejected_games_hand_on_what_a_runner_plays() {
        let mut out = Playable::default();
        parse(
            concat!(
                "[Event \"a\"]\n\n1. d4 d5 2. c4 Qxh7 3. Nc3 *\n\n",
                "[Event \"b\"]\n[FEN \"8/8/8/8\"]\n\n1. e4 *\n\n",
                "[Event \"c\"]\n\n1. Ke2 *\n\n",
                "[Event \"d\"]\n\n1. c4 e5 2. Nc3 Nf6",
            )
            .as_bytes(),
            &mut out,
        );
        assert_eq!(
            out.0,
            [
                "playable d4 d5 c4",
                "reject 1 plies 3",
                "reject 2 plies 0",
                "playable ",
                "reject 3 plies 0",
                "playable c4 e5 Nc3 Nf6",
                "reject 4 plies 4",
            ]
        );
    }

    /// The start key and each ply's key.
    #[derive(Default)]
    struct Keys(u64, Vec<u64>);

    impl Sink for Keys {
        fn mv(&mut self, m: &MoveRecord<'_>) {
            self.1.push(m.key);
        }
        fn game(&mut self, g: &GameRecord<'_>) {
            self.0 = g.start_key;
        }
        fn reject(&mut self, r: &RejectRecord<'_>) {
            panic!("{}", r.reason);
        }
    }

    fn keys(pgn: &[u8]) -> Keys {
        let mut k = Keys::default();
        parse(pgn, &mut k);
        k
    }

    #[test]
    fn keys_are_the_published_polyglot_test_vectors() {
        // The Polyglot book format's test vectors (also python-chess's
        // chess.polyglot.zobrist_hash): en passant counts only when a pawn
        // can capture (after 3...f5 and 5.c4, not after 1.e4).
        let k = keys(b"[Event \"a\"]\n\n1. e4 d5 2. e5 f5 3. Ke2 Kf7 *\n");
        assert_eq!(k.0, 0x463b_9618_1691_fc9c);
        assert_eq!(
            k.1,
            [
                0x823c_9b50_fd11_4196,
                0x0756_b944_61c5_0fb0,
                0x662f_afb9_65db_29d4,
                0x22a4_8b5a_8e47_ff78,
                0x652a_607c_a3f2_42c1,
                0x00fd_d303_c946_bdd9,
            ]
        );
        let k = keys(b"[Event \"b\"]\n\n1. a4 b5 2. h4 b4 3. c4 bxc3 4. Ra3 *\n");
        assert_eq!(k.1[4], 0x3c81_23ea_7b06_7637);
        assert_eq!(k.1[6], 0x5c3f_9b82_9b27_9560);
        // 1...c5: bxc6 e.p. is pseudo-legal but illegal (Ka5 would face
        // Rh5); Polyglot counts the square (python-chess's value).
        let k = keys(b"[FEN \"4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1\"]\n[SetUp \"1\"]\n\n1... c5 *\n");
        assert_eq!(k.1, [0x3516_6a62_c9d2_edc7]);
    }

    #[test]
    fn game_ids_are_stable_and_distinct() {
        // Golden values from Python's hashlib: sha256(b"ab" + n as u32 LE), first
        // 8 bytes big-endian, shifted right by one.
        assert_eq!(game_id("ab", 1), 8_968_744_481_210_677_831);
        assert_eq!(game_id("ab", 2), 5_410_728_381_926_771_751);
        let a = game_id("ab", 1);
        assert_eq!(a, game_id("ab", 1));
        assert_ne!(a, game_id("ab", 2));
        assert_ne!(a, game_id("ac", 1));
        assert!(a >= 0);
    }

    /// Every SAN of a role to a square (with and without capture,
    /// disambiguation and promotion) in positions of random legal games and
    /// of hand-made ones (pins, checks, en passant, promotions): where
    /// `direct_move` answers, shakmaty's `to_move` answers the same move.
    #[test]
    fn direct_moves_are_shakmatys() {
        use shakmaty::{File, Square};
        let mut positions: Vec<Chess> = [
            // A pinned knight, a pinned pawn, a king in check from a rook
            // beside it.
            "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",
            "4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1",
            // En passant (legal and, with the rook, illegal), promotions.
            "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1",
            "4k3/8/8/1Pp5/8/8/8/4K3 w - c6 0 1",
            "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            // Two knights that reach one square, a double check.
            "4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/4r3/3NK3 w - - 0 1",
        ]
        .iter()
        .map(|f| {
            f.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        })
        .collect();
        // Random games, a fixed xorshift seed.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..25 {
            let mut pos = Chess::default();
            for _ in 0..120 {
                positions.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        let (mut answered, mut asked) = (0, 0);
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::King),
        ];
        for pos in &positions {
            for role in Role::ALL {
                for to in Square::ALL {
                    for capture in [false, true] {
                        for promotion in promotions {
                            let files = [None].into_iter().chain(File::ALL.map(Some));
                            for file in files {
                                for rank in [None, Some(to.rank().flip_vertical())] {
                                    let san = San::Normal {
                                        role,
                                        file,
                                        rank,
                                        capture,
                                        to,
                                        promotion,
                                    };
                                    asked += 1;
                                    if let Some(m) = direct_move(pos, san) {
                                        answered += 1;
                                        assert_eq!(Ok(m), san.to_move(pos), "{san} in {pos:?}");
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(answered > 0 && answered < asked, "{answered} of {asked}");
        // It answers the common moves, and leaves castling, a pinned piece
        // and a king's move onto its own piece to shakmaty.
        let start = Chess::default();
        for (san, want) in [("Nf3", true), ("e4", true), ("e3", true), ("O-O", false)] {
            let san: San = san.parse().unwrap();
            assert_eq!(direct_move(&start, san).is_some(), want, "{san}");
        }
        let pinned = &positions[0];
        assert_eq!(direct_move(pinned, "Nc3".parse().unwrap()), None);
        assert!(direct_move(pinned, "Kd1".parse().unwrap()).is_some());
        assert_eq!(direct_move(pinned, "Ke2".parse().unwrap()), None);
    }
}
