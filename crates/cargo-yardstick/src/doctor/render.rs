//! doctor's printed report, from the report's values alone (snapshot-tested
//! with fixed ones).

use std::fmt::Write;

use yardstick_format::doctor::{DoctorReport, MachineState};

/// The report as text.
#[must_use]
pub fn terminal(r: &DoctorReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(&r.machine, &r.state));
    let _ = writeln!(out);
    for f in &r.findings {
        let _ = writeln!(
            out,
            "{:<9} {}: {}",
            format!("[{}]", f.status),
            f.source,
            f.measured
        );
        if f.status == "unknown" {
            continue;
        }
        if let Some(a) = &f.advice {
            let _ = writeln!(out, "          do:        {a}");
        }
        if let Some(c) = &f.command {
            let _ = writeln!(out, "          run:       {c}");
        }
        if let Some(y) = &f.yardstick {
            let _ = writeln!(out, "          yardstick: {y}");
        }
    }
    let noisy = r.findings.iter().filter(|f| f.status == "noisy").count();
    let unknown = r.findings.iter().filter(|f| f.status == "unknown").count();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{noisy} noisy, {unknown} unknown, {} ok; doctor took {:.1} s",
        r.findings.len() - noisy - unknown,
        r.seconds
    );
    out
}

fn header(machine: &str, s: &MachineState) -> String {
    let or_unknown = |v: Option<String>| v.unwrap_or_else(|| "unknown".to_owned());
    format!(
        "{machine}: {}, {} logical CPUs, {} physical cores, kernel {}",
        or_unknown(s.cpu.clone()),
        or_unknown(s.logical_cores.map(|n| n.to_string())),
        or_unknown(s.physical_cores.map(|n| n.to_string())),
        or_unknown(s.kernel.clone()),
    )
}
