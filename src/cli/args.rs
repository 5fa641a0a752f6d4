//! The arguments several commands share: the puzzle-format group (`--box`, `--symbols`) with the
//! one box parser. Arguments of a single command live beside it.

/// `--box RxC` and `--symbols`, shared by every command that reads or writes puzzles.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct FormatArgs {
    /// Boxes of R rows by C columns of cells, e.g. `2x3` for a 6x6 grid of wide boxes; by default the
    /// shape follows from the count of cells (36 cells: 2x3, 144: 3x4, ...).
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub box_shape: Option<(u32, u32)>,
    /// The N symbols in order, e.g. `0123456789ABCDEF`; by default `1`-`9` then `A`, `B`, ...
    #[arg(long, default_value = "")]
    pub symbols: String,
}

impl FormatArgs {
    /// The box rows and columns as the wire carries them: both 0 for the default.
    pub fn box_rows_cols(&self) -> (u32, u32) {
        self.box_shape.unwrap_or((0, 0))
    }

    /// Whether neither the shape nor the alphabet was given.
    pub fn is_default(&self) -> bool {
        self.box_shape.is_none() && self.symbols.is_empty()
    }
}

/// Reads `RxC` (or `R*C`), e.g. `3x4`: the one box parser of every command.
pub fn parse_box(text: &str) -> Result<(u32, u32), String> {
    let (rows, cols) = text
        .split_once(['x', 'X', '*'])
        .ok_or_else(|| format!("expected RxC, such as 2x3, found {text:?}"))?;
    let number = |n: &str| {
        n.trim()
            .parse::<u32>()
            .map_err(|_| format!("expected RxC with whole numbers, such as 2x3, found {text:?}"))
    };
    Ok((number(rows)?, number(cols)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_read_with_x_or_star() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert_eq!(parse_box("4X4"), Ok((4, 4)));
        assert_eq!(parse_box("3*4"), Ok((3, 4)));
        assert!(parse_box("3-4").is_err());
        assert!(parse_box("ax3").is_err());
    }
}
