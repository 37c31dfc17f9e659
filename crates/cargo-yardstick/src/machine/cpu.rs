//! The CPU and what it runs in: model, cores, clock policy, hypervisor,
//! cgroup.

use std::collections::BTreeSet;

use super::Root;

/// The first `model name` of `/proc/cpuinfo`.
pub(super) fn model(cpuinfo: &str) -> Option<String> {
    field(cpuinfo, "model name")
        .next()
        .map(str::to_owned)
        .filter(|s| !s.is_empty())
}

/// The values of a `/proc/cpuinfo` key, one per CPU.
fn field<'a>(cpuinfo: &'a str, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    cpuinfo.lines().filter_map(move |l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// Logical CPUs (`processor` entries) and physical cores (distinct
/// `physical id` and `core id` pairs; unknown when the kernel does not
/// write them, as on many ARM machines).
pub(super) fn cores(cpuinfo: &str) -> (Option<u64>, Option<u64>) {
    let logical = field(cpuinfo, "processor").count() as u64;
    let mut cores = BTreeSet::new();
    let mut package = "0";
    for line in cpuinfo.lines() {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        match k.trim() {
            "physical id" => package = v.trim(),
            "core id" => {
                cores.insert((package, v.trim()));
            }
            _ => {}
        }
    }
    let physical = cores.len() as u64;
    (
        (logical > 0).then_some(logical),
        (physical > 0).then_some(physical),
    )
}

/// The cpufreq governors of the CPUs that have one, comma-separated when
/// they differ.
pub(super) fn governor(root: &Root) -> Option<String> {
    let govs: BTreeSet<String> = root
        .list("sys/devices/system/cpu")
        .iter()
        .filter(|n| n.strip_prefix("cpu").is_some_and(is_number))
        .filter_map(|n| {
            root.line(&format!(
                "sys/devices/system/cpu/{n}/cpufreq/scaling_governor"
            ))
        })
        .filter(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_graphic()))
        .collect();
    (!govs.is_empty()).then(|| govs.into_iter().collect::<Vec<_>>().join(", "))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether turbo/boost may raise the clock: intel_pstate's `no_turbo`
/// (1: off), else cpufreq's `boost` (1: on).
pub(super) fn boost(root: &Root) -> Option<bool> {
    let flag = |rel: &str| match root.line(rel).as_deref() {
        Some("0") => Some(false),
        Some("1") => Some(true),
        _ => None,
    };
    flag("sys/devices/system/cpu/intel_pstate/no_turbo")
        .map(|no_turbo| !no_turbo)
        .or_else(|| flag("sys/devices/system/cpu/cpufreq/boost"))
}

/// Vendors and products the DMI tables of virtual machines name.
const VM_NAMES: &[&str] = &[
    "QEMU",
    "KVM",
    "VMware",
    "VirtualBox",
    "innotek",
    "Xen",
    "Bochs",
    "Virtual Machine",
    "Amazon EC2",
    "Google Compute Engine",
    "OpenStack",
    "DigitalOcean",
    "Parallels",
    "BHYVE",
    "Cloud Hypervisor",
    "Firecracker",
];

/// What says this is a virtual machine or a container.
pub(super) fn virtualization(root: &Root, cpuinfo: &str) -> Vec<String> {
    let mut hints = Vec::new();
    if field(cpuinfo, "flags").any(|f| f.split_whitespace().any(|w| w == "hypervisor")) {
        hints.push("hypervisor flag".to_owned());
    }
    let dmi: Vec<String> = [
        "sys/class/dmi/id/sys_vendor",
        "sys/class/dmi/id/product_name",
    ]
    .iter()
    .filter_map(|f| root.line(f))
    .filter(|s| !s.is_empty())
    .collect();
    let dmi = dmi.join(" ");
    if VM_NAMES.iter().any(|n| dmi.contains(n)) {
        hints.push(format!("dmi: {}", yardstick_format::names::one_line(&dmi)));
    }
    if root.exists(".dockerenv") {
        hints.push("container: docker".to_owned());
    }
    if root.exists("run/.containerenv") {
        hints.push("container: podman".to_owned());
    }
    let cgroup = root.read("proc/1/cgroup").unwrap_or_default();
    if ["docker", "kubepods", "lxc", "containerd"]
        .iter()
        .any(|c| cgroup.contains(c))
    {
        hints.push("container: cgroup".to_owned());
    }
    hints
}

/// The cgroup v2 `cpu.max` of this process's cgroup (or of the root
/// seen from inside a container): `max 100000` when unlimited.
pub(super) fn cgroup_cpu_max(root: &Root) -> Option<String> {
    let own = root
        .read("proc/self/cgroup")
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("0::").map(|p| p.trim().to_owned()))
        })
        .filter(|p| !p.contains(".."));
    let mut candidates = Vec::new();
    if let Some(path) = own {
        let path = path.trim_start_matches('/');
        if !path.is_empty() {
            candidates.push(format!("sys/fs/cgroup/{path}/cpu.max"));
        }
    }
    candidates.push("sys/fs/cgroup/cpu.max".to_owned());
    candidates
        .iter()
        .filter_map(|c| root.line(c))
        .find(|l| valid_cpu_max(l))
        .or_else(|| cgroup_v1_quota(root))
}

/// cgroup v1's `cpu.cfs_quota_us` (-1: unlimited) and period, written as
/// v2's `cpu.max`.
fn cgroup_v1_quota(root: &Root) -> Option<String> {
    let quota: i64 = root
        .line("sys/fs/cgroup/cpu/cpu.cfs_quota_us")?
        .parse()
        .ok()?;
    let period: u64 = root
        .line("sys/fs/cgroup/cpu/cpu.cfs_period_us")?
        .parse()
        .ok()?;
    let text = if quota < 0 {
        format!("max {period}")
    } else {
        format!("{quota} {period}")
    };
    valid_cpu_max(&text).then_some(text)
}

/// `max 100000` or `<quota> <period>`, both numbers.
fn valid_cpu_max(s: &str) -> bool {
    let mut w = s.split_whitespace();
    let (Some(quota), Some(period), None) = (w.next(), w.next(), w.next()) else {
        return false;
    };
    (quota == "max" || quota.parse::<u64>().is_ok()) && period.parse::<u64>().is_ok_and(|p| p > 0)
}

/// The CPUs a `cpu.max` allows (`None` when unlimited or garbage).
pub fn cpu_limit(cpu_max: &str) -> Option<f64> {
    let mut w = cpu_max.split_whitespace();
    let quota: f64 = w.next()?.parse().ok()?;
    let period: f64 = w.next()?.parse().ok()?;
    (period > 0.0).then(|| quota / period)
}
