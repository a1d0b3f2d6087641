//! How a `context` answer shares its budget among the components asked (issue 29 item 2): max-min fairness over
//! whole pieces. Each component first gets its heading and import line (all of them, or the answer is refused);
//! then an equal share of what is left, a component that needs less than its share leaving the rest to the others
//! (water-filling over their demands); within its share it takes, in order, its required props' rows, one example,
//! the rows of the props its examples use most, then the names of the props it showed no row of. What the shares
//! leave is handed out after that, to the least served first (an example that did not fit its share, more names).
//! An example that shows several of the asked components is shown once and credited to each it shows, its cost
//! split between them. Pure arithmetic on stored counts: no text here.

/// A prop row's cost, whole and without its description (tokens, each with its join and JSON escapes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RowCost {
    /// The row with its description.
    pub full: u32,
    /// The row without it.
    pub short: u32,
}

/// One prop of a component in the order its answer considers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PropCost {
    /// Its row, when it is one that matters (required, or used by an example); `None`: listed by name only.
    pub row: Option<RowCost>,
    /// Its entry in the list of names.
    pub name: u32,
}

/// What one component needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Demand {
    /// Its heading and import line: always shown.
    pub base: u32,
    /// Its props: those that matter first (required, then by use), then the rest.
    pub props: Vec<PropCost>,
    /// How many of `props` come before the example (the required ones).
    pub before_example: usize,
    /// The list of names' label and ending, paid with the first name.
    pub names_label: u32,
    /// Its example candidates, best first ([`Candidate`] indexes).
    pub examples: Vec<usize>,
    /// The line that points to an example shown under another component.
    pub reference: u32,
}

/// An example that may be shown.
#[derive(Clone, Debug, Default)]
pub(crate) struct Candidate {
    /// Its label and code (tokens, with the join and JSON escapes).
    pub cost: u32,
    /// The components (indexes) it shows: credited to each.
    pub covers: Vec<usize>,
}

/// What one component got.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Got {
    /// For each prop of its demand: `Some(false)` its whole row, `Some(true)` its row without description, `None` no row.
    pub rows: Vec<Option<bool>>,
    /// The example credited to it ([`Candidate`] index), and whether it is shown here (else under another).
    pub example: Option<(usize, bool)>,
    /// How many names of the props without a row are listed (a prefix of them).
    pub names: usize,
    /// Tokens credited to it.
    pub tokens: u32,
}

/// The allotment of `room` tokens among `demands`, or `Err(needed)` when their bases alone need more.
pub(crate) fn share(room: u32, demands: &[Demand], candidates: &[Candidate]) -> Result<Vec<Got>, u32> {
    let bases: u32 = demands.iter().map(|d| d.base).sum();
    if bases > room {
        return Err(bases);
    }
    let mut state = State {
        room,
        used: bases,
        got: demands
            .iter()
            .map(|d| Got { rows: vec![None; d.props.len()], tokens: d.base, ..Got::default() })
            .collect(),
        names_done: vec![false; demands.len()],
        demands,
        candidates,
    };
    let shares = water_fill(room, &demands.iter().map(|d| demand(d, candidates)).collect::<Vec<_>>());
    for (i, d) in demands.iter().enumerate() {
        let share = shares[i];
        for p in 0..d.before_example {
            state.row(i, p, share);
        }
        state.example(i, share);
        for p in d.before_example..d.props.len() {
            state.row(i, p, share);
        }
        state.names(i, share);
    }
    // What the shares left: to the least served first, one piece at a time.
    loop {
        let open: Vec<usize> = (0..demands.len())
            .filter(|&i| (state.got[i].example.is_none() && !demands[i].examples.is_empty()) || !state.names_done[i])
            .collect();
        let Some(&i) = open.iter().min_by_key(|&&i| (state.got[i].tokens, i)) else { break };
        if state.got[i].example.is_none() && !demands[i].examples.is_empty() && state.example(i, u32::MAX) {
            continue;
        }
        // No example fits any more: it is not tried again.
        state.got[i].example = state.got[i].example.or(Some((usize::MAX, false)));
        if !state.names_done[i] && !state.name(i, u32::MAX) {
            state.names_done[i] = true;
        }
    }
    for g in &mut state.got {
        if g.example == Some((usize::MAX, false)) {
            g.example = None;
        }
    }
    Ok(state.got)
}

/// A component's whole demand: base, its rows whole, its first example's share, the names of the others.
fn demand(d: &Demand, candidates: &[Candidate]) -> u32 {
    let rows: u32 = d.props.iter().map(|p| p.row.map_or(p.name, |r| r.full)).sum();
    // A shared example's part, and the line pointing to it from the others.
    let example = d.examples.first().map_or(0, |&c| {
        let covers = candidates[c].covers.len().max(1) as u32;
        candidates[c].cost.div_ceil(covers) + if covers > 1 { d.reference } else { 0 }
    });
    d.base + rows + example + d.names_label
}

/// Each demand's share of `room`: its demand when all fit, else the level that the demands under it leave
/// (water-filling: `Σ min(demand, level) = room`).
fn water_fill(room: u32, demands: &[u32]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..demands.len()).collect();
    order.sort_by_key(|&i| demands[i]);
    let mut shares = vec![0; demands.len()];
    let mut left = room;
    for (k, &i) in order.iter().enumerate() {
        let level = left / (order.len() - k) as u32;
        shares[i] = demands[i].min(level);
        left -= shares[i];
    }
    shares
}

/// The allotment being made.
struct State<'d> {
    room: u32,
    used: u32,
    got: Vec<Got>,
    names_done: Vec<bool>,
    demands: &'d [Demand],
    candidates: &'d [Candidate],
}

impl State<'_> {
    /// Whether `cost` more fits the room and component `i`'s `share`.
    fn fits(&self, i: usize, cost: u32, share: u32) -> bool {
        self.used + cost <= self.room && self.got[i].tokens.saturating_add(cost) <= share
    }

    fn charge(&mut self, i: usize, cost: u32) {
        self.used += cost;
        self.got[i].tokens += cost;
    }

    /// Prop `p`'s row of component `i`, whole or short, when it is one that matters and fits `share`.
    fn row(&mut self, i: usize, p: usize, share: u32) {
        let Some(r) = self.demands[i].props[p].row else { return };
        for (cost, short) in [(r.full, false), (r.short, true)] {
            if self.fits(i, cost, share) {
                self.charge(i, cost);
                self.got[i].rows[p] = Some(short);
                return;
            }
        }
    }

    /// The first of component `i`'s example candidates that fits `share` (its part of the cost) and the room, shown
    /// here and credited to every component it shows that has none yet. Whether one was.
    fn example(&mut self, i: usize, share: u32) -> bool {
        if self.got[i].example.is_some() {
            return false;
        }
        for &c in &self.demands[i].examples {
            let cand = &self.candidates[c];
            let with: Vec<usize> =
                cand.covers.iter().copied().filter(|&j| j == i || self.got[j].example.is_none()).collect();
            let part = cand.cost.div_ceil(with.len().max(1) as u32);
            let refs: u32 = with.iter().filter(|&&j| j != i).map(|&j| self.demands[j].reference).sum();
            if self.used + cand.cost + refs > self.room || self.got[i].tokens.saturating_add(part) > share {
                continue;
            }
            self.used += cand.cost + refs;
            for &j in &with {
                let reference = if j == i { 0 } else { self.demands[j].reference };
                self.got[j].tokens += part + reference;
                self.got[j].example = Some((c, j == i));
            }
            return true;
        }
        false
    }

    /// Component `i`'s names within `share`, from where its list stands.
    fn names(&mut self, i: usize, share: u32) {
        while !self.names_done[i] && self.name(i, share) {}
    }

    /// The next name of component `i`'s list (its label with the first), when it fits `share`: whether one was
    /// listed. A list with every name listed is done.
    fn name(&mut self, i: usize, share: u32) -> bool {
        let d = &self.demands[i];
        let unlisted: Vec<usize> = (0..d.props.len()).filter(|&p| self.got[i].rows[p].is_none()).collect();
        let Some(&p) = unlisted.get(self.got[i].names) else {
            self.names_done[i] = true;
            return false;
        };
        let cost = d.props[p].name + if self.got[i].names == 0 { d.names_label } else { 0 };
        if !self.fits(i, cost, share) {
            return false;
        }
        self.charge(i, cost);
        self.got[i].names += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(n: usize, row: u32, name: u32) -> Vec<PropCost> {
        (0..n).map(|_| PropCost { row: Some(RowCost { full: row, short: row / 2 }), name }).collect()
    }

    #[test]
    fn water_filling_gives_what_a_small_one_leaves_to_the_others() {
        assert_eq!(water_fill(900, &[100, 1000, 1000]), [100, 400, 400]);
        assert_eq!(water_fill(900, &[100, 200, 300]), [100, 200, 300]);
        assert_eq!(water_fill(90, &[1000, 1000, 1000]), [30, 30, 30]);
    }

    #[test]
    fn shares_are_fair_and_within_the_room() {
        let big = Demand { base: 10, props: props(20, 50, 3), names_label: 5, reference: 8, ..Demand::default() };
        let small = Demand { base: 10, props: props(2, 50, 3), names_label: 5, reference: 8, ..Demand::default() };
        let got = share(600, &[big.clone(), small, big], &[]).unwrap();
        let total: u32 = got.iter().map(|g| g.tokens).sum();
        assert!(total <= 600, "{total}");
        assert_eq!(got[1].rows, [Some(false), Some(false)], "the small one gets all it needs");
        assert!(got[0].tokens.abs_diff(got[2].tokens) <= 60, "{got:?}");
        assert!(got[0].tokens > got[1].tokens);
        assert_eq!(share(20, &[Demand { base: 30, ..Demand::default() }], &[]), Err(30));
    }

    #[test]
    fn a_shared_example_is_shown_once_and_credited_to_each() {
        let d = |examples: Vec<usize>| Demand { base: 10, examples, reference: 6, ..Demand::default() };
        let candidates = [Candidate { cost: 300, covers: vec![0, 1] }, Candidate { cost: 100, covers: vec![2] }];
        let got = share(1000, &[d(vec![0]), d(vec![0]), d(vec![1])], &candidates).unwrap();
        assert_eq!(got[0].example, Some((0, true)));
        assert_eq!(got[1].example, Some((0, false)));
        assert_eq!(got[2].example, Some((1, true)));
        assert_eq!(got[0].tokens, 160);
        assert_eq!(got[1].tokens, 166);
        // Too small for the shared one: none is shown, never over the room.
        let got = share(200, &[d(vec![0]), d(vec![0])], &candidates).unwrap();
        assert!(got.iter().all(|g| g.example.is_none()), "{got:?}");
    }
}
