//! The readers against folders of hand-written `/proc` and `/sys` files.

use std::path::Path;

use super::*;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const CPUINFO: &str = "processor\t: 0
model name\t: Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz
physical id\t: 0
core id\t\t: 0
flags\t\t: fpu vme hypervisor sse2

processor\t: 1
model name\t: Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz
physical id\t: 0
core id\t\t: 0
flags\t\t: fpu vme hypervisor sse2

processor\t: 2
model name\t: Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz
physical id\t: 0
core id\t\t: 1
flags\t\t: fpu vme hypervisor sse2
";

fn full_machine(root: &Path) {
    write(root, "proc/cpuinfo", CPUINFO);
    write(
        root,
        "proc/stat",
        "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n",
    );
    write(root, "proc/loadavg", "0.50 0.40 0.30 1/100 999\n");
    write(
        root,
        "proc/meminfo",
        "MemTotal:       8000 kB\nMemFree:  10 kB\nMemAvailable:   4000 kB\n",
    );
    write(
        root,
        "proc/pressure/memory",
        "some avg10=1.50 avg60=0.00 avg300=0.00 total=5\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
    );
    write(root, "proc/sys/kernel/osrelease", "6.1.0-test\n");
    write(root, "proc/sys/kernel/randomize_va_space", "2\n");
    write(root, "proc/self/cgroup", "0::/user.slice/bench\n");
    write(
        root,
        "sys/fs/cgroup/user.slice/bench/cpu.max",
        "150000 100000\n",
    );
    write(root, "sys/devices/system/cpu/smt/control", "on\n");
    write(root, "sys/devices/system/cpu/isolated", "\n");
    write(root, "sys/devices/system/cpu/nohz_full", "(null)\n");
    write(root, "sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
    for (cpu, gov) in [(0, "powersave"), (1, "performance"), (2, "powersave")] {
        write(
            root,
            &format!("sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor"),
            &format!("{gov}\n"),
        );
    }
    write(root, "sys/class/dmi/id/sys_vendor", "QEMU\n");
    write(
        root,
        "sys/class/dmi/id/product_name",
        "Standard PC (Q35 + ICH9, 2009)\n",
    );
    write(root, ".dockerenv", "");
}

#[test]
fn every_value_read_from_a_full_machine() {
    let dir = tempfile::tempdir().unwrap();
    let root = Root::at(dir.path());
    full_machine(dir.path());
    let start = Start::read(&root);
    // A second later: 100 ticks more, 40 of them idle, 10 stolen.
    write(dir.path(), "proc/stat", "cpu  140 0 60 830 60 0 0 10 0 0\n");
    write(dir.path(), "proc/loadavg", "1.25 0.40 0.30 1/100 999\n");
    let s = state(&root, &start);
    assert_eq!(
        s.cpu.as_deref(),
        Some("Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz")
    );
    assert_eq!((s.logical_cores, s.physical_cores), (Some(3), Some(2)));
    assert_eq!(s.smt.as_deref(), Some("on"));
    assert_eq!(s.governor.as_deref(), Some("performance, powersave"));
    assert_eq!(s.boost, Some(true), "no_turbo 0: turbo on");
    assert_eq!(s.kernel.as_deref(), Some("6.1.0-test"));
    assert_eq!(
        s.virtualization,
        [
            "hypervisor flag",
            "dmi: QEMU Standard PC (Q35 + ICH9, 2009)",
            "container: docker"
        ]
    );
    assert_eq!(s.cpu_max.as_deref(), Some("150000 100000"));
    assert_eq!(cpu::cpu_limit("150000 100000"), Some(1.5));
    assert_eq!(cpu::cpu_limit("max 100000"), None);
    assert_eq!(s.isolated_cpus.as_deref(), Some(""));
    assert_eq!(s.nohz_full.as_deref(), Some("(null)"));
    assert_eq!(s.aslr, Some(2));
    assert_eq!((s.load_start, s.load_end), (Some(0.5), Some(1.25)));
    // 100 ticks: 40 idle (30 idle + 10 iowait), 10 stolen, 50 busy.
    assert_eq!((s.steal, s.busy), (Some(0.1), Some(0.5)));
    assert_eq!(s.memory_total, Some(8000 * 1024));
    assert_eq!(s.memory_available, Some(4000 * 1024));
    assert_eq!(s.memory_pressure, Some(1.5));
    assert_eq!(s.cpu_pressure, None, "no file");
}

#[test]
fn an_empty_root_is_all_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let root = Root::at(dir.path());
    let s = state(&root, &Start::read(&root));
    assert_eq!(s, yardstick_format::doctor::MachineState::default());
    let none = Root::at(&dir.path().join("not-there"));
    assert_eq!(state(&none, &Start::read(&none)), s);
}

#[test]
fn garbage_is_unknown_never_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let root = Root::at(dir.path());
    let d = dir.path();
    write(d, "proc/cpuinfo", "\u{0}\u{1}garbage without colons\n");
    write(d, "proc/stat", "cpu  1 2 x 4 5 6 7 8\n");
    write(d, "proc/loadavg", "-3 nan\n");
    write(
        d,
        "proc/meminfo",
        "MemTotal: lots kB\nMemAvailable: 12 MB\n",
    );
    write(d, "proc/pressure/cpu", "some avg10=250.0\n");
    write(d, "proc/pressure/memory", "full avg10=1.0\n");
    write(d, "proc/sys/kernel/randomize_va_space", "two\n");
    write(d, "proc/self/cgroup", "0::/../../etc\n");
    write(d, "sys/fs/cgroup/cpu.max", "lots 0\n");
    write(d, "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
    write(d, "sys/fs/cgroup/cpu/cpu.cfs_period_us", "zero\n");
    write(d, "sys/devices/system/cpu/intel_pstate/no_turbo", "maybe\n");
    write(d, "sys/devices/system/cpu/cpufreq/boost", "2\n");
    write(
        d,
        "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
        "\n",
    );
    write(d, "sys/devices/system/cpu/smt/control", "");
    std::fs::write(d.join("proc/sys/kernel/osrelease"), [0xff, 0xfe]).unwrap();
    let s = state(&root, &Start::read(&root));
    assert_eq!(s, yardstick_format::doctor::MachineState::default());
}

#[test]
fn cgroup_v1_quota_reads_as_cpu_max() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
    write(d, "sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
    let root = Root::at(d);
    assert_eq!(cpu::cgroup_cpu_max(&root).as_deref(), Some("max 100000"));
    write(d, "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "50000\n");
    assert_eq!(cpu::cgroup_cpu_max(&root).as_deref(), Some("50000 100000"));
    // cpufreq's boost where intel_pstate has none.
    write(d, "sys/devices/system/cpu/cpufreq/boost", "0\n");
    assert_eq!(cpu::boost(&root), Some(false));
    write(d, "sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
    assert_eq!(cpu::boost(&root), Some(false));
}

/// What recording the state costs a run on this machine: the reads at its
/// start and end, and the bytes the history keeps. Prints, asserts no
/// time: `cargo test -p cargo-yardstick --bin cargo-yardstick -- --ignored
/// recording_cost --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn recording_cost() {
    let root = Root::system();
    let n = 200;
    let t = std::time::Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        let start = Start::read(&root);
        let s = state(&root, &start);
        bytes = yardstick_format::json::to_string(&s).len();
    }
    let ms = t.elapsed().as_secs_f64() * 1000.0 / f64::from(n);
    println!("recording the state: {ms:.3} ms a run, {bytes} bytes of JSON");
}
