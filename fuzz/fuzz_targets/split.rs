//! Arbitrary bytes through the splitter, read in small pieces and cut into
//! small batches: every game span must point at its own bytes of the input,
//! with consecutive numbers, increasing offsets and the right line. The last
//! byte sets the read size and batch size (so a PGN file is a seed as it is).
//! An input whose first MiB has CRs and no LF has lone-CR lines: the splitter
//! reads each CR as an LF (see `Splitter`), and so does this check.
#![no_main]

use std::io::Read;

use evallab_pgn::split::Splitter;
use libfuzzer_sys::fuzz_target;

/// Returns at most `step` bytes per read, to put refills at arbitrary places.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.data.len().min(out.len()).min(self.step);
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&knob, input)) = data.split_last() else {
        return;
    };
    // 1 to 16 reads (each refill costs the splitter a 1 MiB buffer extension,
    // so single-byte reads would only slow the fuzzer down).
    let head = &input[..input.len().min(1 << 20)];
    let cr_lines = !head.contains(&b'\n') && head.contains(&b'\r');
    let text: Vec<u8> = if cr_lines {
        input.iter().map(|&b| if b == b'\r' { b'\n' } else { b }).collect()
    } else {
        input.to_vec()
    };
    let step = input.len().div_ceil(1 + usize::from(knob & 0x0f)).max(1);
    let target = 1 + usize::from(knob >> 4) * 61;
    let mut split = Splitter::new(Trickle { data: input, step });
    let mut number = 0;
    let mut last_end = 0u64;
    while let Some(batch) = split.next_batch(target).unwrap() {
        assert!(!batch.games.is_empty());
        for g in &batch.games {
            number += 1;
            assert_eq!(g.number, number);
            assert!(g.start <= g.movetext && g.movetext <= g.end && g.end <= batch.buf.len());
            assert!(g.offset >= last_end);
            let len = g.end - g.start;
            let at = g.offset as usize;
            assert_eq!(&text[at..at + len], &batch.buf[g.start..g.end]);
            let lines = text[..at].iter().filter(|&&b| b == b'\n').count();
            assert_eq!(g.line as usize, lines + 1);
            last_end = g.offset + len as u64;
        }
    }
});
