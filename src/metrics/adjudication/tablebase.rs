//! Syzygy tablebases for adjudication (`adjudicate --syzygy DIR`): the
//! tables the user has, probed with shakmaty-syzygy the way cutechess's
//! `SyzygyTablebase::result` reads them (WDL with the 50-move rule: cursed
//! wins and blessed losses are draws): the [`Probe`] the replay asks.

use std::path::Path;

use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

use crate::Error;
use crate::metrics::adjudication::query::Probe;
use crate::metrics::adjudication::replay::Outcome;

/// The tables of one directory.
pub struct Syzygy {
    tables: Tablebase<Chess>,
}

impl Syzygy {
    /// Opens every table in `dir`; an error names the directory when it cannot
    /// be read or holds no Syzygy table.
    pub fn open(dir: &Path) -> Result<Syzygy, Error> {
        let mut tables = Tablebase::new();
        let n = tables.add_directory(dir).map_err(|e| Error::io(dir, e))?;
        if n == 0 {
            return Err(Error::Usage(format!(
                "--syzygy {}: no Syzygy table (*.rtbw, *.rtbz) in it",
                dir.display()
            )));
        }
        Ok(Syzygy { tables })
    }

    /// The most men the tables cover.
    pub fn max_men(&self) -> u32 {
        self.tables.max_pieces() as u32
    }
}

impl Probe for Syzygy {
    fn probe(&self, pos: &Chess) -> Option<Outcome> {
        let wdl = self.tables.probe_wdl(pos).ok()?;
        let mover_wins = match wdl {
            AmbiguousWdl::Win | AmbiguousWdl::MaybeWin => true,
            AmbiguousWdl::Loss | AmbiguousWdl::MaybeLoss => false,
            _ => return Some(Outcome::Draw),
        };
        let white_wins = mover_wins == (pos.turn() == Color::White);
        Some(if white_wins {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_names_the_directory() {
        let e = Syzygy::open(Path::new("/no/such/tables"))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("/no/such/tables"), "{e}");
        let empty = tempfile::tempdir().unwrap();
        let e = Syzygy::open(empty.path()).err().unwrap().to_string();
        assert!(e.contains("no Syzygy table"), "{e}");
    }
}
