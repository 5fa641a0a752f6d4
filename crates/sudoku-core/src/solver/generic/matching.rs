//! All-different reasoning by matching: where `n` items must each take a different one of `n`
//! options (the cells of a unit and its values), every solution is a perfect matching, so an option
//! no perfect matching gives an item can go (Régin's filtering for a permutation: an option is kept
//! when it is matched, or when item and mate lie on one alternating cycle). On a unit this is every
//! naked and hidden subset at once, of any size.

use super::Mask;
use crate::candidates::bits;
use crate::grid::Shape;

/// No item: an option not matched yet.
pub(super) const NONE: u8 = u8::MAX;

/// For `adj` (per item, its options as bits), the options some perfect matching gives each item,
/// written into `allowed`; false when there is no perfect matching (no solution). `mate` (per option,
/// its item) is where the search for a matching starts, kept from the last call on the same
/// constraint: the pairs still possible stay, so a narrowed graph needs few augmenting paths.
pub(super) fn permutation(
    adj: &[Mask],
    mate: &mut [u8; Shape::MAX_SIDE],
    allowed: &mut [Mask],
) -> bool {
    let n = adj.len();
    debug_assert!(n <= Shape::MAX_SIDE && allowed.len() == n);
    let mut matched: Mask = 0;
    for (j, item) in mate[..n].iter_mut().enumerate() {
        let i = usize::from(*item);
        if *item != NONE && adj[i] & 1 << j != 0 && matched & 1 << i == 0 {
            matched |= 1 << i;
        } else {
            *item = NONE;
        }
    }
    // Items with two options or more: the rest are decided, matched to their one option.
    let mut open: Mask = 0;
    for (i, &options) in adj.iter().enumerate() {
        if options & options.wrapping_sub(1) != 0 {
            open |= 1 << i;
        }
        if matched & 1 << i == 0 {
            let mut visited = 0;
            if !augment(i, adj, mate, &mut visited) {
                return false;
            }
        }
    }
    // Item i reaches item k when i has an option matched to k (an alternating path); an option j
    // of item i belongs to some perfect matching when it is i's own or its mate reaches i back. A
    // decided item reaches only itself.
    let mut reach = [0 as Mask; Shape::MAX_SIDE];
    let mut back = [0 as Mask; Shape::MAX_SIDE];
    for (i, r) in reach[..n].iter_mut().enumerate() {
        *r = 1 << i;
    }
    let mut items = open;
    let mut targets = 0;
    while items != 0 {
        let i = items.trailing_zeros() as usize;
        items &= items - 1;
        let mut bits = adj[i];
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let k = usize::from(mate[j]);
            reach[i] |= 1 << k;
            back[k] |= 1 << i;
            targets |= 1 << k;
        }
    }
    if open == 0 {
        allowed.copy_from_slice(adj);
        return true;
    }
    // Usually the open items form one strongly connected whole: every option of theirs is in some
    // perfect matching. Two searches (forwards and backwards from one item) find out.
    if targets & !open == 0 {
        let start = 1 << open.trailing_zeros();
        let spans = |edges: &[Mask; Shape::MAX_SIDE]| {
            reached(start, |from| union(from, |i| edges[i])) & open == open
        };
        if spans(&reach) && spans(&back) {
            allowed.copy_from_slice(adj);
            return true;
        }
    }
    let mut through = open;
    while through != 0 {
        let k = through.trailing_zeros() as usize;
        through &= through - 1;
        let via = reach[k];
        let mut items = open;
        while items != 0 {
            let i = items.trailing_zeros() as usize;
            items &= items - 1;
            if reach[i] & 1 << k != 0 {
                reach[i] |= via;
            }
        }
    }
    for (i, (&options, out)) in adj.iter().zip(allowed.iter_mut()).enumerate() {
        if open & 1 << i == 0 {
            *out = options;
            continue;
        }
        let mut keep = 0;
        let mut bits = options;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if reach[usize::from(mate[j])] & 1 << i != 0 {
                keep |= 1 << j;
            }
        }
        *out = keep;
    }
    true
}

/// Kuhn's augmenting path from item `i`, over options not yet `visited`.
fn augment(i: usize, adj: &[Mask], mate: &mut [u8; Shape::MAX_SIDE], visited: &mut Mask) -> bool {
    let mut bits = adj[i] & !*visited;
    while bits != 0 {
        let j = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        // A deeper path may have visited it since.
        if *visited & 1 << j != 0 {
            continue;
        }
        *visited |= 1 << j;
        if mate[j] == NONE || augment(usize::from(mate[j]), adj, mate, visited) {
            mate[j] = i as u8;
            return true;
        }
    }
    false
}

/// The same filter on one unit's open cells, cheaply when it can: the unit's last matching
/// `mate` (per value, its position) repaired, then the strongly connected components of the open
/// cells `open` (candidates `adj`, their values `values`, each value's positions `places`) found
/// by one search forwards and one backwards each, instead of building the whole alternating graph
/// as [`permutation`] does. A candidate stays when its matched cell lies in its own cell's
/// component. `Some(removed any)` with the kept options in `allowed` (its open cells' entries);
/// `None` when unsure (no matching repaired this way, or values left over), for the full filter.
pub(super) fn filter_fast(
    adj: &[Mask; Shape::MAX_SIDE],
    open: Mask,
    values: Mask,
    mate: &mut [u8; Shape::MAX_SIDE],
    places: &[Mask],
    allowed: &mut [Mask; Shape::MAX_SIDE],
) -> Option<bool> {
    // The last matching, kept where it still holds (each open value matched to an open cell that
    // keeps it, one each) and completed by augmenting paths.
    let mut hit: Mask = 0;
    for j in bits(values) {
        let i = usize::from(mate[j]);
        if i >= Shape::MAX_SIDE || open & 1 << i == 0 || adj[i] & 1 << j == 0 || hit & 1 << i != 0 {
            mate[j] = NONE;
        } else {
            hit |= 1 << i;
        }
    }
    for i in bits(open & !hit) {
        if !augment(i, adj, mate, &mut 0) {
            return None;
        }
    }
    let mut value_of = [0u8; Shape::MAX_SIDE];
    let mut matched: Mask = 0;
    for j in bits(values) {
        let i = usize::from(mate[j]);
        if i >= Shape::MAX_SIDE || open & 1 << i == 0 {
            return None;
        }
        matched |= 1 << i;
        value_of[i] = j as u8;
    }
    if matched != open {
        return None;
    }
    // One component at a time: the cells a pivot reaches forwards (a cell reaches the cells its
    // candidates are matched to) and is reached from backwards (from the cells that hold its
    // matched value).
    let mut left = open;
    let mut pruned = false;
    while left != 0 {
        let start = left & left.wrapping_neg();
        let mut taken: Mask = 0;
        let ahead = reached(start, |from| {
            let fresh = union(from, |i| adj[i]) & !taken;
            taken |= fresh;
            union(fresh, |j| 1 << mate[j])
        });
        let behind = reached(start, |from| {
            union(from, |i| places[usize::from(value_of[i])]) & open
        });
        let component = ahead & behind;
        if component == open {
            break;
        }
        left &= !component;
        let own = union(component, |i| 1 << value_of[i]);
        for i in bits(component) {
            allowed[i] = adj[i] & own;
            pruned |= allowed[i] != adj[i];
        }
    }
    Some(pruned)
}

/// Everything reached from `start` (a set of items) when a step goes from a set to `step(set)`:
/// a breadth-first search over bitsets.
#[inline]
fn reached(start: Mask, mut step: impl FnMut(Mask) -> Mask) -> Mask {
    let (mut seen, mut frontier) = (start, start);
    while frontier != 0 {
        let next = step(frontier);
        frontier = next & !seen;
        seen |= next;
    }
    seen
}

/// The union of `of(i)` over the items `i` of `set`.
#[inline]
fn union(set: Mask, of: impl Fn(usize) -> Mask) -> Mask {
    bits(set).fold(0, |acc, i| acc | of(i))
}
