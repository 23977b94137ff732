//! A rating problem (docs/definitions/ratings.md, R5–R9): the encounters of
//! `n` players, who can be rated with whom (R6) and the connectivity groups
//! (R9), shared by Newton's fit (fit.rs) and Ordo's own search (ordo.rs).
//!
//! Connectivity groups: engines whose ratings the games tie together.
//! A rating difference is finite only if each side scored against the
//! other, directly or through a chain of engines. Ordo (`groups.c`) joins
//! the players of encounters that are not one-sided, then merges groups that
//! beat each other in a cycle: the strongly connected components of the
//! graph "A scored at least a draw against B". That graph's components are
//! computed here directly (Tarjan).

/// The games of one White against one Black (Ordo's encounter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encounter {
    pub white: u32,
    pub black: u32,
    /// White wins, draws, Black wins.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Encounter {
    pub fn games(&self) -> f64 {
        f64::from(self.wins + self.draws + self.losses)
    }

    pub fn white_points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }
}

/// Whether an engine can be rated with the others (R6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Normal,
    /// Won every game: rated afterwards (R7).
    AllWins,
    /// Lost every game: rated afterwards (R7).
    AllLosses,
    /// No game in this problem (a replay's engine left out, simulate.rs).
    NoGames,
}

/// The games of `n` players, who is rated with whom, and the groups.
#[derive(Debug, Clone)]
pub struct Problem {
    pub n: usize,
    pub enc: Vec<Encounter>,
    pub points: Vec<f64>,
    pub played: Vec<f64>,
    pub kind: Vec<Kind>,
    /// The connectivity group of each normal player (R9).
    pub group: Vec<Option<usize>>,
    pub n_groups: usize,
    /// The encounters between normal players: (white, black, games, White's points).
    pub(super) rated: Vec<(usize, usize, f64, f64)>,
}

impl Problem {
    pub fn new(n: usize, enc: Vec<Encounter>) -> Problem {
        let mut points = vec![0.0; n];
        let mut played = vec![0.0; n];
        for e in &enc {
            points[e.white as usize] += e.white_points();
            points[e.black as usize] += e.games() - e.white_points();
            played[e.white as usize] += e.games();
            played[e.black as usize] += e.games();
        }
        // One pass, as Ordo's players_set_super (R6).
        let kind: Vec<Kind> = (0..n)
            .map(|i| {
                if played[i] == 0.0 {
                    Kind::NoGames
                } else if played[i] - points[i] < 0.001 {
                    Kind::AllWins
                } else if points[i] < 0.001 {
                    Kind::AllLosses
                } else {
                    Kind::Normal
                }
            })
            .collect();
        let active: Vec<bool> = kind.iter().map(|k| *k == Kind::Normal).collect();
        let group = components(n, &enc, &active);
        let n_groups = group.iter().flatten().max().map_or(0, |m| m + 1);
        let rated = enc
            .iter()
            .filter(|e| active[e.white as usize] && active[e.black as usize])
            .map(|e| {
                (
                    e.white as usize,
                    e.black as usize,
                    e.games(),
                    e.white_points(),
                )
            })
            .collect();
        Problem {
            rated,
            n,
            enc,
            points,
            played,
            kind,
            group,
            n_groups,
        }
    }

    /// Whether a replay is accepted as Ordo accepts it (R11): every player
    /// scored and conceded points, and the games tie them all into one
    /// group. (Ordo's check runs after the all-wins/all-losses players are
    /// set aside and counts each of them as a group of its own.)
    pub fn connects(n: usize, enc: &[Encounter]) -> bool {
        let mut points = vec![0.0; n];
        let mut played = vec![0.0; n];
        for e in enc {
            points[e.white as usize] += e.white_points();
            points[e.black as usize] += e.games() - e.white_points();
            played[e.white as usize] += e.games();
            played[e.black as usize] += e.games();
        }
        if (0..n).any(|i| points[i] < 0.001 || played[i] - points[i] < 0.001) {
            return false;
        }
        components(n, enc, &vec![true; n])
            .iter()
            .all(|g| *g == Some(0))
    }

    pub(super) fn active(&self, i: usize) -> bool {
        self.kind[i] == Kind::Normal
    }

    /// The encounters between normal players: (white, black, games, White's points).
    pub(super) fn rated(&self) -> &[(usize, usize, f64, f64)] {
        &self.rated
    }

    /// The encounters between normal players.
    pub(super) fn rated_encounters(&self) -> impl Iterator<Item = &Encounter> {
        self.enc
            .iter()
            .filter(|e| self.active(e.white as usize) && self.active(e.black as usize))
    }

    /// The same problem with everyone rated together (for a full Hessian).
    pub(super) fn everyone(&self) -> Problem {
        Problem {
            kind: vec![Kind::Normal; self.n],
            rated: self
                .enc
                .iter()
                .map(|e| {
                    (
                        e.white as usize,
                        e.black as usize,
                        e.games(),
                        e.white_points(),
                    )
                })
                .collect(),
            ..self.clone()
        }
    }

    /// Each player's connectivity group (R9): a normal player's own; a
    /// player who won or lost every game joins the group of its opponents
    /// when they are all in one (None otherwise, and without games).
    pub fn attached_groups(&self) -> Vec<Option<usize>> {
        // One pass over the encounters: the opponents' group so far of each
        // player set aside (Some(None): opponents in several or no group).
        let mut seen: Vec<Option<Option<usize>>> = vec![None; self.n];
        let mut meet = |j: usize, opp: usize| {
            if self.kind[j] != Kind::Normal {
                let g = self.group[opp];
                seen[j] = match seen[j] {
                    None => Some(g),
                    Some(prev) if prev == g => Some(g),
                    Some(_) => Some(None),
                };
            }
        };
        for e in &self.enc {
            meet(e.white as usize, e.black as usize);
            meet(e.black as usize, e.white as usize);
        }
        (0..self.n)
            .map(|j| match self.kind[j] {
                Kind::Normal => self.group[j],
                _ => seen[j].flatten(),
            })
            .collect()
    }

    /// The normal player with the most games (lowest index on ties): the
    /// solver holds it still while the others move.
    pub fn ground(&self) -> Option<usize> {
        (0..self.n)
            .filter(|&i| self.active(i))
            .max_by(|&a, &b| self.played[a].total_cmp(&self.played[b]).then(b.cmp(&a)))
    }
}

/// The strongly connected component of each player in `active` (None for the
/// others), numbered by size, largest first (ties: lowest player index).
pub fn components(n: usize, enc: &[Encounter], active: &[bool]) -> Vec<Option<usize>> {
    // Edge a → b: a scored against b; as adjacency lists in one array.
    let mut start = vec![0usize; n + 1];
    let each = |f: &mut dyn FnMut(usize, usize)| {
        for e in enc {
            let (w, b) = (e.white as usize, e.black as usize);
            if active[w] && active[b] {
                if e.wins + e.draws > 0 {
                    f(w, b);
                }
                if e.losses + e.draws > 0 {
                    f(b, w);
                }
            }
        }
    };
    each(&mut |a, _| start[a + 1] += 1);
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut to = vec![0usize; start[n]];
    each(&mut |a, b| {
        to[fill[a]] = b;
        fill[a] += 1;
    });
    let adj = Adjacency { start, to };
    let comp = tarjan(&adj, active);
    // Renumber: largest first.
    let k = comp.iter().flatten().max().map_or(0, |m| m + 1);
    let mut size = vec![(0usize, usize::MAX); k];
    for (i, c) in comp.iter().enumerate() {
        if let Some(c) = c {
            size[*c].0 += 1;
            size[*c].1 = size[*c].1.min(i);
        }
    }
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|&c| (std::cmp::Reverse(size[c].0), size[c].1));
    let mut new_id = vec![0; k];
    for (id, c) in order.into_iter().enumerate() {
        new_id[c] = id;
    }
    comp.into_iter().map(|c| c.map(|c| new_id[c])).collect()
}

/// Adjacency lists: node a's neighbours are `to[start[a]..start[a + 1]]`.
struct Adjacency {
    start: Vec<usize>,
    to: Vec<usize>,
}

impl Adjacency {
    fn get(&self, a: usize, k: usize) -> Option<&usize> {
        self.to[self.start[a]..self.start[a + 1]].get(k)
    }
}

/// Tarjan's algorithm without recursion (the archive's chains are long).
fn tarjan(adj: &Adjacency, active: &[bool]) -> Vec<Option<usize>> {
    let n = active.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![None; n];
    let mut next = 0;
    let mut count = 0;
    for root in 0..n {
        if !active[root] || index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut call = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(top) = call.last_mut() {
            let v = top.0;
            if let Some(&w) = adj.get(v, top.1) {
                top.1 += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = Some(count);
                        if w == v {
                            break;
                        }
                    }
                    count += 1;
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::super::fit::tests::e;
    use super::*;

    #[test]
    fn one_sided_results_split_groups() {
        // 0 and 1 draw; 2 and 3 trade wins; 0 beats 2 (one-sided): two groups.
        let enc = [
            e(0, 1, 0, 1, 0),
            e(2, 3, 1, 0, 0),
            e(3, 2, 1, 0, 0),
            e(0, 2, 1, 0, 0),
        ];
        let g = components(4, &enc, &[true; 4]);
        assert_eq!(g, [Some(0), Some(0), Some(1), Some(1)]);
        // 2 draws 1 once: the cycle 0 → 2 → 1 → 0 joins everything.
        let mut enc = enc.to_vec();
        enc.push(e(1, 2, 0, 1, 0));
        assert_eq!(components(4, &enc, &[true; 4]), [Some(0); 4]);
        // Inactive players are in no group, and their games tie nobody.
        let g = components(4, &enc, &[true, true, false, true]);
        assert_eq!(g, [Some(0), Some(0), None, Some(1)]);
    }

    #[test]
    fn a_long_chain_of_draws_is_one_group() {
        let enc: Vec<Encounter> = (0..10_000).map(|i| e(i, i + 1, 0, 1, 0)).collect();
        let g = components(10_001, &enc, &vec![true; 10_001]);
        assert!(g.iter().all(|c| *c == Some(0)));
    }
}
