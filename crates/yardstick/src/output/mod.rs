//! What a run prints.

mod style;
mod terminal;

pub(crate) use style::Style;
pub(crate) use terminal::{Completed, Terminal};
