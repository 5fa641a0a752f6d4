//! The geometry of one shape, built once and shared by every search: each cell's peers (small
//! shapes), each unit's cells, and where each cell sits in its three units.

use std::sync::OnceLock;

use crate::grid::Shape;

/// The largest side whose cells keep a list of their peers. There a placed value is taken from
/// every peer in turn (few peers, a tight loop: walking the value's places instead cost 1.6 % more
/// instructions in 6x6 generation); above, only from the peers its places name (on 25x25, a few of
/// 72 peers: -19 % instructions a probe), and the list, O(cells^2) to build, is not built.
pub(super) const PEER_LIST_MAX_SIDE: usize = 9;

/// The cells that share a row, column or box, per shape.
pub(super) struct Tables {
    pub(super) shape: Shape,
    /// Every cell's peers, `peer_count` a cell; empty above [`PEER_LIST_MAX_SIDE`] (see there).
    peers: Vec<u16>,
    peer_count: usize,
    /// Every unit's cells, `side` a unit: the rows, then the columns, then the boxes.
    pub(super) units: Vec<u16>,
    /// Per cell, its row, column and box, each as `(unit, position of the cell in that unit)`.
    pub(super) homes: Vec<[(u16, u8); 3]>,
    /// Per unit kind and position (`kind * side + position`), the positions of the same unit that
    /// lie where it meets one other unit: for a row, the same box (its stack); for a column, the same
    /// box (its band); for a box, the same row and the same column. A value whose places in a unit
    /// fit in one such group is locked there (locked candidates). Unused slots are 0.
    pub(super) groups: Vec<[u32; 2]>,
}

impl Tables {
    /// The tables of `shape`, built the first time a search needs them.
    pub(super) fn of(shape: Shape) -> &'static Tables {
        // Indexed by box_rows and box_cols, each at most 12.
        static TABLES: [[OnceLock<Tables>; 13]; 13] =
            [const { [const { OnceLock::new() }; 13] }; 13];
        TABLES[shape.box_rows()][shape.box_cols()].get_or_init(|| Tables::new(shape))
    }

    fn new(shape: Shape) -> Tables {
        let side = shape.side();
        let mut units = Vec::with_capacity(3 * side * side);
        let kinds: [&dyn Fn(usize, usize) -> usize; 3] = [
            &|unit, i| unit * side + i,
            &|unit, i| i * side + unit,
            &|unit, i| {
                let row = unit / shape.box_rows() * shape.box_rows() + i / shape.box_cols();
                let col = unit % shape.box_rows() * shape.box_cols() + i % shape.box_cols();
                row * side + col
            },
        ];
        let mut homes = vec![[(0, 0); 3]; shape.cells()];
        for (kind, cell_of) in kinds.iter().enumerate() {
            for unit in 0..side {
                for i in 0..side {
                    let cell = cell_of(unit, i);
                    homes[cell][kind] = ((kind * side + unit) as u16, i as u8);
                    units.push(cell as u16);
                }
            }
        }
        let peer_count = 3 * (side - 1) - (shape.box_rows() - 1) - (shape.box_cols() - 1);
        let mut peers = Vec::new();
        if side <= PEER_LIST_MAX_SIDE {
            peers.reserve(shape.cells() * peer_count);
            for index in 0..shape.cells() {
                let cell = shape.cell(index);
                for other in 0..shape.cells() {
                    let c = shape.cell(other);
                    let shares = c.row == cell.row
                        || c.col == cell.col
                        || shape.box_of(c) == shape.box_of(cell);
                    if other != index && shares {
                        peers.push(other as u16);
                    }
                }
            }
        }
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let group = |same: &dyn Fn(usize) -> usize, i: usize| {
            (0..side)
                .filter(|&j| same(j) == same(i))
                .fold(0u32, |m, j| m | 1 << j)
        };
        let mut groups = vec![[0u32; 2]; 3 * side];
        for i in 0..side {
            groups[i] = [group(&|j| j / bc, i), 0];
            groups[side + i] = [group(&|j| j / br, i), 0];
            groups[2 * side + i] = [group(&|j| j / bc, i), group(&|j| j % bc, i)];
        }
        Tables {
            groups,
            shape,
            peers,
            peer_count,
            units,
            homes,
        }
    }

    /// The cells that share a unit with `cell`; empty above [`PEER_LIST_MAX_SIDE`].
    pub(super) fn peers(&self, cell: usize) -> &[u16] {
        if self.peers.is_empty() {
            return &[];
        }
        &self.peers[cell * self.peer_count..][..self.peer_count]
    }

    /// The cells of `unit`.
    pub(super) fn unit(&self, unit: usize) -> &[u16] {
        let side = self.shape.side();
        &self.units[unit * side..][..side]
    }
}
