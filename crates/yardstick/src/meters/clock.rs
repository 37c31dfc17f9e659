//! The CPU-time clocks and the process's peak resident memory, from libc.

/// A clock measuring CPU time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CpuClock {
    /// Every thread of the process.
    Process,
    /// The calling thread.
    Thread,
}

impl CpuClock {
    /// The clock's current reading in nanoseconds, or the `errno` name of why
    /// it cannot be read (`"unsupported"` off Unix).
    #[inline]
    pub(crate) fn now_ns(self) -> Result<u64, &'static str> {
        imp::now_ns(self)
    }
}

/// Peak resident set size of the process in bytes (`getrusage`'s
/// `ru_maxrss`), or `None` where the system does not report it.
///
/// This is the process's high-water mark since it started, so it only grows:
/// it bounds the memory of everything the process ran, not of one benchmark.
pub fn peak_rss() -> Option<u64> {
    imp::peak_rss()
}

#[cfg(unix)]
mod imp {
    use super::CpuClock;

    #[inline]
    pub(super) fn now_ns(clock: CpuClock) -> Result<u64, &'static str> {
        let id = match clock {
            CpuClock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
            CpuClock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
        };
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the whole call and
        // `id` is one of the clock ids libc defines for this system.
        let rc = unsafe { libc::clock_gettime(id, &mut ts) };
        if rc != 0 {
            return Err(crate::meters::errno::last_name());
        }
        // CPU time is never negative; tv_nsec is below 10^9.
        Ok(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
    }

    pub(super) fn peak_rss() -> Option<u64> {
        // SAFETY: `rusage` is plain old data, valid when zeroed.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is a valid, writable rusage for the whole call.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let maxrss = u64::try_from(usage.ru_maxrss).ok().filter(|&r| r > 0)?;
        // macOS and iOS report bytes; Linux and the BSDs report KiB.
        if cfg!(any(target_os = "macos", target_os = "ios")) {
            Some(maxrss)
        } else {
            Some(maxrss * 1024)
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::CpuClock;

    #[inline]
    pub(super) fn now_ns(_: CpuClock) -> Result<u64, &'static str> {
        Err("unsupported")
    }

    pub(super) fn peak_rss() -> Option<u64> {
        None
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn thread_cpu() -> Duration {
        Duration::from_nanos(CpuClock::Thread.now_ns().unwrap())
    }

    #[test]
    fn a_sleeping_thread_uses_almost_no_cpu_time() {
        let (cpu0, wall0) = (thread_cpu(), Instant::now());
        std::thread::sleep(Duration::from_millis(100));
        let (cpu, wall) = (thread_cpu() - cpu0, wall0.elapsed());
        assert!(wall >= Duration::from_millis(100), "{wall:?}");
        assert!(
            cpu < Duration::from_millis(10),
            "cpu {cpu:?} while sleeping"
        );
    }

    #[test]
    fn process_cpu_time_includes_the_thread_s() {
        let (p0, t0) = (CpuClock::Process.now_ns().unwrap(), thread_cpu());
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(20) {
            std::hint::black_box(0u64);
        }
        let t = thread_cpu() - t0;
        let p = Duration::from_nanos(CpuClock::Process.now_ns().unwrap() - p0);
        assert!(
            p + Duration::from_millis(1) >= t,
            "process {p:?} < thread {t:?}"
        );
    }

    #[test]
    fn peak_rss_is_at_least_what_this_process_touched() {
        let before = peak_rss().expect("getrusage reports ru_maxrss on unix");
        let big = vec![1u8; 64 << 20];
        std::hint::black_box(&big);
        let after = peak_rss().unwrap();
        assert!(after >= before, "{after} < {before}");
        assert!(
            after >= 64 << 20,
            "peak {after} below the 64 MiB just touched"
        );
    }
}
