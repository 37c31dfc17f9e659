//! `cargo yardstick doctor`: is this machine quiet enough to benchmark on?
//! Reads the machine's state (`crate::machine`), measures the clock, the
//! empty loop and how far one fixed piece of work moves from second to
//! second (each second a fresh process), and prints each noise source with what to do about it. It
//! takes the drift window (5 s by default) plus well under a second.

mod advice;
pub mod measure;
mod render;

use std::time::Instant;

use yardstick_format::doctor::{DoctorReport, MachineState, VERSION};

use crate::machine::{self, Root, Start};

pub use advice::findings;
pub use render::terminal;

/// Output format of `doctor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DoctorFormat {
    /// Each noise source with advice, as text.
    Terminal,
    /// The report as JSON (`doctor.v1.json`).
    Json,
}

/// `cargo yardstick doctor [--format terminal|json] [--seconds N]`.
#[derive(Debug, Clone, clap::Args)]
pub struct DoctorArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "terminal")]
    pub format: DoctorFormat,
    /// Seconds the fixed work is timed for (2 to 10): the drift window.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..=10))]
    pub seconds: u64,
    /// Internal: time the fixed work for one second in this process and
    /// print the timings (doctor runs each second of its window so).
    #[arg(long, hide = true)]
    pub work_second: bool,
}

/// Measures this machine and returns the text to print.
#[must_use]
pub fn run(args: &DoctorArgs) -> String {
    if args.work_second {
        return measure::work_second_text();
    }
    let began = Instant::now();
    let root = Root::system();
    let start = Start::read(&root);
    let measured = measure::measure(&root, args.seconds);
    let state = machine::state(&root, &start);
    let r = report(
        crate::host::machine_name(),
        state,
        measured,
        began.elapsed().as_secs_f64(),
    );
    match args.format {
        DoctorFormat::Terminal => terminal(&r),
        DoctorFormat::Json => yardstick_format::json::to_string(&r) + "\n",
    }
}

/// The report of values read and measured.
#[must_use]
pub fn report(
    machine: String,
    state: MachineState,
    m: measure::Measured,
    seconds: f64,
) -> DoctorReport {
    DoctorReport {
        version: VERSION,
        machine,
        seconds,
        findings: findings(&state, &m),
        state,
        timer: m.timer,
        empty_loop_ns: m.empty_loop_ns,
        drift: m.drift,
        busy_processes: m.busy,
    }
}
