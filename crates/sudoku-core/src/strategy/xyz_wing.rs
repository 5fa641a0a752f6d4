//! XYZ-Wing (4.4): a pivot with candidates {x, y, z} sees a pincer {x, z} and a pincer {y, z}. One of
//! the three holds z, so a cell seeing all three loses z.

use super::{Context, Step, xy_wing};
use crate::candidates::Board;

/// The first XYZ-Wing that removes something.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    xy_wing::wing(board, ctx, true)
}
