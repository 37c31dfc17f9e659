//! CPU time: all CPUs' (`/proc/stat`) and each process's
//! (`/proc/<pid>/stat`), read twice and compared.

use super::Root;

/// All CPUs' time since boot, in clock ticks (`/proc/stat`'s `cpu` line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuTimes {
    /// Every column's sum (guest time is already in user time).
    pub total: u64,
    /// `idle` and `iowait`.
    pub idle: u64,
    /// `steal`: time the hypervisor ran another guest on our CPUs.
    pub steal: u64,
}

/// What happened between two [`CpuTimes`], as fractions of all CPUs' time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Stolen by the hypervisor.
    pub steal: f64,
    /// Not idle (stolen time counts as not ours, so not busy).
    pub busy: f64,
}

impl CpuTimes {
    /// Reads `/proc/stat`; `None` when it cannot (or its `cpu` line has
    /// fewer than the 8 columns that hold steal time, kernels before 2.6.11).
    #[must_use]
    pub fn read(root: &Root) -> Option<CpuTimes> {
        let text = root.read("proc/stat")?;
        let line = text.lines().find(|l| l.starts_with("cpu "))?;
        let cols: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        if cols.len() < 8 {
            return None;
        }
        // user nice system idle iowait irq softirq steal [guest guest_nice]
        let total = cols[..8].iter().try_fold(0u64, |a, &c| a.checked_add(c))?;
        Some(CpuTimes {
            total,
            idle: cols[3].checked_add(cols[4])?,
            steal: cols[7],
        })
    }

    /// The window from `before` to `self`; `None` when no tick passed or
    /// the counters went back.
    #[must_use]
    pub fn since(&self, before: &CpuTimes) -> Option<Window> {
        let total = self.total.checked_sub(before.total)?;
        let idle = self.idle.checked_sub(before.idle)?;
        let steal = self.steal.checked_sub(before.steal)?;
        if total == 0 || idle + steal > total {
            return None;
        }
        let t = total as f64;
        Some(Window {
            steal: steal as f64 / t,
            busy: (total - idle - steal) as f64 / t,
        })
    }
}

/// One process's CPU time so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessTime {
    /// Its id.
    pub pid: u32,
    /// Its parent's id.
    pub ppid: u32,
    /// Its command name (`comm`).
    pub name: String,
    /// User and system time, in clock ticks.
    pub ticks: u64,
}

/// Every process's CPU time (those that vanish or cannot be read are
/// left out).
#[must_use]
pub fn processes(root: &Root) -> Vec<ProcessTime> {
    root.list("proc")
        .iter()
        .filter_map(|n| n.parse::<u32>().ok())
        .filter_map(|pid| {
            let text = root.read(&format!("proc/{pid}/stat"))?;
            parse_stat(pid, &text)
        })
        .collect()
}

/// `pid (comm) state ppid … utime stime …`: the name may hold spaces and
/// parentheses, so the fields are counted from the last `)`.
fn parse_stat(pid: u32, text: &str) -> Option<ProcessTime> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text.get(open + 1..close)?;
    let rest: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // rest[0] is the state (field 3), rest[1] the parent; utime and
    // stime are fields 14, 15.
    let ppid: u32 = rest.get(1)?.parse().ok()?;
    let utime: u64 = rest.get(11)?.parse().ok()?;
    let stime: u64 = rest.get(12)?.parse().ok()?;
    Some(ProcessTime {
        pid,
        ppid,
        name: yardstick_format::names::one_line(name).into_owned(),
        ticks: utime.checked_add(stime)?,
    })
}

/// The processes other than `own` and its children that used CPU time between `before` and
/// `after`, with the CPUs each kept busy (`ticks / hz / seconds`), busiest
/// first, at most `keep`.
#[must_use]
pub fn busiest(
    before: &[ProcessTime],
    after: &[ProcessTime],
    own: u32,
    hz: f64,
    seconds: f64,
    keep: usize,
) -> Vec<(u32, String, f64)> {
    if !(hz > 0.0 && seconds > 0.0) {
        return Vec::new();
    }
    let old: std::collections::HashMap<(u32, &str), u64> = before
        .iter()
        .map(|p| ((p.pid, p.name.as_str()), p.ticks))
        .collect();
    let mut busy: Vec<(u32, String, f64)> = after
        .iter()
        .filter(|p| p.pid != own && p.ppid != own)
        .filter_map(|p| {
            // A process born during the window counts from zero.
            let was = old.get(&(p.pid, p.name.as_str())).copied().unwrap_or(0);
            let used = p.ticks.checked_sub(was)?;
            (used > 0).then(|| (p.pid, p.name.clone(), used as f64 / hz / seconds))
        })
        .collect();
    busy.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    busy.truncate(keep);
    busy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_spaces_and_parentheses() {
        let stat = "42 (a (b) c) S 1 1 1 0 -1 4194560 10 0 0 0 300 45 0 0 20 0 1 0 5 0 0";
        let p = parse_stat(42, stat).unwrap();
        assert_eq!((p.name.as_str(), p.ppid, p.ticks), ("a (b) c", 1, 345));
        assert_eq!(parse_stat(1, "1 (x) S 1 2"), None);
        assert_eq!(parse_stat(1, "garbage"), None);
    }

    #[test]
    fn window_fractions_by_hand() {
        let a = CpuTimes {
            total: 1000,
            idle: 600,
            steal: 10,
        };
        let b = CpuTimes {
            total: 1200,
            idle: 700,
            steal: 30,
        };
        // 200 ticks: 100 idle, 20 stolen, 80 busy.
        let w = b.since(&a).unwrap();
        assert_eq!((w.steal, w.busy), (0.1, 0.4));
        assert_eq!(a.since(&b), None, "counters went back");
        assert_eq!(a.since(&a), None, "no tick passed");
    }

    #[test]
    fn busiest_counts_each_process_over_the_window() {
        let p = |pid, ppid, name: &str, ticks| ProcessTime {
            pid,
            ppid,
            name: name.into(),
            ticks,
        };
        let before = [p(1, 0, "init", 5), p(2, 1, "rustc", 100), p(9, 1, "me", 0)];
        // 10 is doctor's own child timing a second of work: not other load.
        let after = [
            p(1, 0, "init", 5),
            p(2, 1, "rustc", 300),
            p(3, 2, "cc", 50),
            p(9, 1, "me", 400),
            p(10, 9, "me", 100),
        ];
        // 100 Hz over 2 s: rustc's 200 ticks are one CPU, cc's 50 a quarter.
        let b = busiest(&before, &after, 9, 100.0, 2.0, 5);
        assert_eq!(
            b,
            [(2, "rustc".to_owned(), 1.0), (3, "cc".to_owned(), 0.25)]
        );
        assert!(busiest(&before, &after, 9, 0.0, 2.0, 5).is_empty());
    }
}
