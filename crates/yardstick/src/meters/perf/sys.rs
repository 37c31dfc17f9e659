//! A small safe wrapper over Linux's `perf_event_open(2)`: the attribute
//! struct, the constants yardstick uses, and owned event descriptors.
//!
//! The layout is `PERF_ATTR_SIZE_VER1` (72 bytes) of
//! `include/uapi/linux/perf_event.h`, which every kernel since 2.6.33
//! accepts; the fields after it are not needed for counting.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `PERF_TYPE_HARDWARE`.
pub(crate) const TYPE_HARDWARE: u32 = 0;
/// `PERF_TYPE_SOFTWARE`.
pub(crate) const TYPE_SOFTWARE: u32 = 1;

/// `PERF_COUNT_HW_*`.
pub(crate) const HW_CPU_CYCLES: u64 = 0;
pub(crate) const HW_INSTRUCTIONS: u64 = 1;
pub(crate) const HW_CACHE_REFERENCES: u64 = 2;
pub(crate) const HW_CACHE_MISSES: u64 = 3;
pub(crate) const HW_BRANCH_INSTRUCTIONS: u64 = 4;
pub(crate) const HW_BRANCH_MISSES: u64 = 5;

/// `PERF_COUNT_SW_*`.
pub(crate) const SW_TASK_CLOCK: u64 = 1;
pub(crate) const SW_PAGE_FAULTS: u64 = 2;
pub(crate) const SW_CONTEXT_SWITCHES: u64 = 3;
pub(crate) const SW_CPU_MIGRATIONS: u64 = 4;

/// `PERF_FORMAT_*`: what a `read` of the group returns.
const FORMAT_TOTAL_TIME_ENABLED: u64 = 1 << 0;
const FORMAT_TOTAL_TIME_RUNNING: u64 = 1 << 1;
const FORMAT_GROUP: u64 = 1 << 3;

/// Bits of the attribute's flag word.
const FLAG_DISABLED: u64 = 1 << 0;
const FLAG_EXCLUDE_KERNEL: u64 = 1 << 5;
const FLAG_EXCLUDE_HV: u64 = 1 << 6;

/// `_IO('$', 0)`, `_IO('$', 1)`, `_IO('$', 3)` and `PERF_IOC_FLAG_GROUP`.
const IOC_ENABLE: u64 = 0x2400;
const IOC_DISABLE: u64 = 0x2401;
const IOC_RESET: u64 = 0x2403;
const IOC_FLAG_GROUP: u64 = 1;

/// `PERF_FLAG_FD_CLOEXEC`.
const FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;

/// `struct perf_event_attr`, up to `config2`.
#[repr(C)]
#[derive(Default)]
struct Attr {
    kind: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    config1: u64,
    config2: u64,
}

const _: () = assert!(std::mem::size_of::<Attr>() == 72);

/// One event to count: its type and config, and whether kernel (and
/// hypervisor) work is left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EventSpec {
    pub(crate) kind: u32,
    pub(crate) config: u64,
    pub(crate) exclude_kernel: bool,
}

/// An open perf event, closed on drop.
#[derive(Debug)]
pub(crate) struct Event(OwnedFd);

impl Event {
    /// Opens `spec` counting the calling thread on any CPU, as a member of
    /// `group` or, without one, as a new group's leader (created disabled;
    /// members follow the leader's state). Returns the `errno` on failure.
    pub(crate) fn open(spec: EventSpec, group: Option<&Event>) -> Result<Event, i32> {
        let mut flags = 0;
        if group.is_none() {
            flags |= FLAG_DISABLED;
        }
        if spec.exclude_kernel {
            flags |= FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV;
        }
        let attr = Attr {
            kind: spec.kind,
            size: std::mem::size_of::<Attr>() as u32,
            config: spec.config,
            read_format: FORMAT_GROUP | FORMAT_TOTAL_TIME_ENABLED | FORMAT_TOTAL_TIME_RUNNING,
            flags,
            ..Attr::default()
        };
        let group_fd = group.map_or(-1, |g| g.0.as_raw_fd());
        // SAFETY: `attr` is a valid perf_event_attr of the size it declares,
        // alive for the whole call; pid 0 / cpu -1 is "this thread, any CPU";
        // `group_fd` is -1 or an open perf event descriptor.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_perf_event_open,
                std::ptr::from_ref(&attr),
                0 as libc::pid_t,
                -1 as libc::c_int,
                group_fd as libc::c_int,
                FLAG_FD_CLOEXEC,
            )
        };
        if rc < 0 {
            return Err(super::super::errno::last());
        }
        // SAFETY: the kernel returned a new descriptor that nothing else owns.
        Ok(Event(unsafe { OwnedFd::from_raw_fd(rc as libc::c_int) }))
    }

    /// Resets and enables the group this event leads.
    pub(crate) fn enable_group(&self) -> Result<(), i32> {
        self.ioctl(IOC_RESET)?;
        self.ioctl(IOC_ENABLE)
    }

    /// Disables the group this event leads.
    pub(crate) fn disable_group(&self) -> Result<(), i32> {
        self.ioctl(IOC_DISABLE)
    }

    fn ioctl(&self, request: u64) -> Result<(), i32> {
        // SAFETY: the descriptor is an open perf event; these requests take an
        // integer argument and touch no memory of ours.
        let rc = unsafe { libc::ioctl(self.0.as_raw_fd(), request as _, IOC_FLAG_GROUP) };
        if rc < 0 {
            Err(super::super::errno::last())
        } else {
            Ok(())
        }
    }

    /// Reads the group this event leads in one system call, into `buf`:
    /// `[nr, time_enabled, time_running, value_0, …, value_{nr-1}]`, values
    /// in the order the events joined the group. False when the read fails
    /// or is short.
    #[inline]
    pub(crate) fn read_group(&self, buf: &mut [u64]) -> bool {
        let len = std::mem::size_of_val(buf);
        // SAFETY: `buf` is valid for writes of `len` bytes for the whole call.
        let n = unsafe { libc::read(self.0.as_raw_fd(), buf.as_mut_ptr().cast(), len) };
        n == len as isize
    }
}
