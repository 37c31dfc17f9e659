//! Why counters cannot be opened, in words, with the fix when there is one.

use super::is_hardware;
use crate::meters::errno;
use crate::meters::Metric;

/// An event that could not be opened, and the `errno` of the open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) metric: Metric,
    pub(crate) errno: i32,
}

/// The command offered whenever `perf_event_paranoid` stands in the way: 1
/// allows counting this thread including its kernel work.
const SYSCTL: &str = "`sudo sysctl kernel.perf_event_paranoid=1`";

/// `/proc/sys/kernel/perf_event_paranoid`, when readable.
pub(crate) fn paranoid() -> Option<i32> {
    let text = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid").ok()?;
    text.trim().parse().ok()
}

/// One note per cause (the same `errno`), naming the events it hides.
pub(crate) fn failures(failures: &[Failure], paranoid: Option<i32>) -> Vec<String> {
    let mut notes = Vec::new();
    let mut seen: Vec<i32> = Vec::new();
    for f in failures {
        if seen.contains(&f.errno) {
            continue;
        }
        seen.push(f.errno);
        let metrics: Vec<Metric> = failures
            .iter()
            .filter(|g| g.errno == f.errno)
            .map(|g| g.metric)
            .collect();
        notes.push(one(&metrics, f.errno, paranoid));
    }
    notes
}

fn one(metrics: &[Metric], code: i32, paranoid: Option<i32>) -> String {
    let what = label(metrics);
    let call = format!("perf_event_open: {}", errno::name(code));
    match code {
        libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV => {
            format!("{what} are not supported on this machine ({call})")
        }
        libc::EACCES | libc::EPERM => match paranoid {
            Some(p) if p >= 2 => {
                let kernel = if p == 2 {
                    ", which forbids counting kernel events"
                } else {
                    ""
                };
                format!(
                    "{what} are not allowed: perf_event_paranoid is {p}{kernel}: run {SYSCTL} \
                     to allow counters ({call})"
                )
            }
            Some(p) => format!(
                "{what} were refused ({call}) although perf_event_paranoid is {p}: a seccomp \
                 filter (a container's, for instance) or a security module blocks perf_event_open"
            ),
            None => format!(
                "{what} were refused ({call}) and perf_event_paranoid cannot be read: perf events \
                 may be disabled in this kernel or blocked by a seccomp filter"
            ),
        },
        libc::ENOSYS => {
            format!("{what} are not available: this kernel has no perf events ({call})")
        }
        libc::EMFILE | libc::ENFILE => {
            format!("{what} could not be opened: too many open files ({call})")
        }
        _ => format!("{what} could not be opened ({call})"),
    }
}

/// The note when hardware counters had to include kernel work.
pub(crate) fn kernel_included(metrics: &[Metric]) -> String {
    format!(
        "{} include kernel work: this machine's counters cannot leave it out",
        label(metrics)
    )
}

/// The note when page faults could be counted in user mode only.
pub(crate) fn user_faults_only(paranoid: Option<i32>) -> String {
    let p = paranoid.map_or_else(|| "unreadable".to_owned(), |p| p.to_string());
    format!(
        "page-faults counts only faults taken in user mode, not those inside system calls \
         (perf_event_paranoid is {p}): run {SYSCTL} to count them too"
    )
}

/// `hardware counters (instructions, cycles)`, `software counters (…)` or
/// `performance counters (…)` when both kinds are named.
fn label(metrics: &[Metric]) -> String {
    let names: Vec<&str> = metrics.iter().map(Metric::name).collect();
    let kind = if metrics.iter().all(|m| is_hardware(*m)) {
        "hardware"
    } else if metrics.iter().any(|m| is_hardware(*m)) {
        "performance"
    } else {
        "software"
    };
    format!("{kind} counters ({})", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(metric: Metric, errno: i32) -> Failure {
        Failure { metric, errno }
    }

    #[test]
    fn unsupported_hardware_is_one_note_naming_every_event() {
        let notes = failures(
            &[
                fail(Metric::Instructions, libc::ENOENT),
                fail(Metric::Cycles, libc::ENOENT),
            ],
            Some(2),
        );
        assert_eq!(
            notes,
            [
                "hardware counters (instructions, cycles) are not supported on this machine \
              (perf_event_open: ENOENT)"
            ]
        );
    }

    #[test]
    fn a_strict_paranoid_setting_says_what_to_change() {
        let notes = failures(
            &[
                fail(Metric::Cycles, libc::EACCES),
                fail(Metric::PageFaults, libc::EACCES),
            ],
            Some(3),
        );
        assert_eq!(
            notes,
            [
                "performance counters (cycles, page-faults) are not allowed: perf_event_paranoid \
              is 3: run `sudo sysctl kernel.perf_event_paranoid=1` to allow counters \
              (perf_event_open: EACCES)"
            ]
        );
        let notes = failures(&[fail(Metric::ContextSwitches, libc::EACCES)], Some(2));
        assert!(
            notes[0].contains("is 2, which forbids counting kernel events"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_refusal_despite_a_lax_setting_blames_a_filter() {
        let notes = failures(&[fail(Metric::TaskClock, libc::EPERM)], Some(1));
        assert!(
            notes[0].starts_with("software counters (task-clock) were refused"),
            "{notes:?}"
        );
        assert!(notes[0].contains("seccomp"), "{notes:?}");
        let notes = failures(&[fail(Metric::TaskClock, libc::EPERM)], None);
        assert!(notes[0].contains("cannot be read"), "{notes:?}");
    }

    #[test]
    fn each_cause_gets_its_own_note() {
        let notes = failures(
            &[
                fail(Metric::Instructions, libc::ENOENT),
                fail(Metric::ContextSwitches, libc::EACCES),
                fail(Metric::Branches, libc::ENOENT),
                fail(Metric::TaskClock, libc::ENOSYS),
                fail(Metric::PageFaults, libc::E2BIG),
            ],
            Some(2),
        );
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(notes[0].starts_with("hardware counters (instructions, branches)"));
        assert!(notes[2].contains("this kernel has no perf events"));
        assert_eq!(
            notes[3],
            "software counters (page-faults) could not be opened (perf_event_open: E2BIG)"
        );
    }
}
