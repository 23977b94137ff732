//! One move comment, decoded as the game parser decodes it (UTF-8, else
//! Latin-1), through every dialect and both normalisations.
#![no_main]

use evallab_pgn::comment;
use evallab_pgn::tags::decode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = decode(data);
    let mut extra = String::new();
    let c = comment::parse(&text, &mut extra);
    if let Some(e) = c.eval {
        let w = e.normalize(true, c.depth);
        let b = e.normalize(false, c.depth);
        assert_eq!(w.kind, b.kind);
    }
    // Every text field borrows the comment.
    for s in [c.eval_raw, c.expected_reply, c.pv, c.mb, c.wdl]
        .into_iter()
        .flatten()
    {
        assert!(text.contains(s));
    }
});
