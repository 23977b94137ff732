//! Connectivity groups (R9): engines whose ratings the games tie together.
//!
//! A rating difference is finite only if each side scored against the
//! other, directly or through a chain of engines. Ordo (`groups.c`) joins
//! the players of encounters that are not one-sided, then merges groups that
//! beat each other in a cycle: the strongly connected components of the
//! graph "A scored at least a draw against B". That graph's components are
//! computed here directly (Tarjan).

use super::fit::Encounter;

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
    use super::*;

    fn e(white: u32, black: u32, wins: u32, draws: u32, losses: u32) -> Encounter {
        Encounter {
            white,
            black,
            wins,
            draws,
            losses,
        }
    }

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
