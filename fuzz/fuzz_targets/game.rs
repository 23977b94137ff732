//! Arbitrary bytes split and parsed into a counting sink: no panic, and every
//! game the splitter finds is either a good game (with its plies) or a reject.
//! The last byte sets the batch size and keep_pv (so a PGN file is a seed as it is).
#![no_main]

use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::sink::Counter;
use evallab_pgn::split::Splitter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&knob, input)) = data.split_last() else {
        return;
    };
    let opts = ParseOptions {
        keep_pv: knob & 1 == 0,
    };
    let target = 1 + usize::from(knob >> 1) * 33;
    let src = Source {
        name: "fuzz",
        sha256: Some("00"),
    };
    let mut split = Splitter::new(input);
    while let Some(batch) = split.next_batch(target).unwrap() {
        let mut sink = Counter::default();
        let c = parse_batch(&batch, src, opts, &mut sink);
        assert_eq!(c.games + c.rejects, batch.games.len() as u64);
        assert_eq!(
            (sink.games, sink.rejects, sink.moves),
            (c.games, c.rejects, c.plies)
        );
    }
});
