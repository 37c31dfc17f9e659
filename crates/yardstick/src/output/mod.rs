//! What a run prints.

pub(crate) mod messages;
mod power;
mod rebar;
mod style;
mod table;
mod tasty;
mod terminal;

pub(crate) use style::Style;
pub(crate) use terminal::{Completed, Terminal};
