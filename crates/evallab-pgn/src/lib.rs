//! evallab-pgn: the parsing half of evallab, free of polars and arrow.
//!
//! The flow: [`input`] finds and decompresses files, [`split`] cuts them into
//! batches of whole games, [`tags`] reads each tag section, [`movetext`] cuts
//! the movetext into words and comments, [`game`] validates every move
//! (shakmaty) and reads every eval comment ([`comment`]), and hands
//! the rows to a [`Sink`] as borrowed records ([`sink`]). evallab's Arrow table
//! builders are one such sink; the benches and fuzz targets use counting ones.
//!
//! ```
//! use evallab_pgn::game::{ParseOptions, Source, parse_batch};
//! use evallab_pgn::sink::Counter;
//! use evallab_pgn::split::Splitter;
//! let pgn = b"[Event \"x\"]\n\n1. e4 {+0.30/20 1.0s} e5 1-0\n";
//! let batch = Splitter::new(&pgn[..]).next_batch(1 << 20).unwrap().unwrap();
//! let src = Source { name: "x.pgn", sha256: Some("00") };
//! let mut sink = Counter::default();
//! let counts = parse_batch(&batch, src, ParseOptions::default(), &mut sink);
//! assert_eq!((counts.games, counts.plies, sink.evals), (1, 2, 1));
//! ```

pub mod comment;
pub mod error;
pub mod game;
pub mod input;
pub mod movetext;
pub mod sink;
pub mod split;
pub mod tags;

pub use error::Error;
pub use sink::Sink;
