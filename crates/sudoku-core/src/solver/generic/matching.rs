//! All-different reasoning by matching: where `n` items must each take a different one of `n`
//! options (the cells of a unit and its values), every solution is a perfect matching, so an option
//! no perfect matching gives an item can go (Régin's filtering for a permutation: an option is kept
//! when it is matched, or when item and mate lie on one alternating cycle). On a unit this is every
//! naked and hidden subset at once, of any size.

use super::Mask;
use crate::grid::Shape;

/// No item: an option not matched yet.
const NONE: u8 = u8::MAX;

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
            let (mut seen, mut frontier): (Mask, Mask) = (start, start);
            while frontier != 0 {
                let mut next = 0;
                while frontier != 0 {
                    let i = frontier.trailing_zeros() as usize;
                    frontier &= frontier - 1;
                    next |= edges[i];
                }
                frontier = next & !seen;
                seen |= next;
            }
            seen & open == open
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
pub(super) fn augment(
    i: usize,
    adj: &[Mask],
    mate: &mut [u8; Shape::MAX_SIDE],
    visited: &mut Mask,
) -> bool {
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
