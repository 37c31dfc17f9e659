//! The Criterion.rs front-end's side of benchmarks that wait for their
//! setup to be dropped (`runner::held`): what waits, in order, until the
//! target function of `criterion_group!` that defined it has returned.
//!
//! Only `criterion_group!` knows when a target function returns, so only
//! a `Criterion` made by it lets benchmarks wait (a hand-written `main`
//! might never say, and its benchmarks would never run). A group with a
//! waiting member waits with it: its summary (Big-O, ratios,
//! requirements) needs every member's time.

use crate::config::BenchmarkConfig;
use crate::group_summary::{Member, Requirement};
use crate::id::FullId;

/// A group's end, held back until its waiting members are measured.
pub(crate) struct GroupEnd {
    pub name: String,
    /// Its members in order; a waiting one's `typical` is filled in from
    /// the job it names in `waiting`.
    pub members: Vec<Member>,
    /// (index in `members`, job) of the waiting members.
    pub waiting: Vec<(usize, usize)>,
    pub compare_by_id: bool,
    pub log_scale: bool,
    pub requirements: Vec<Requirement>,
}

/// One thing to do once the target function has returned.
pub(crate) enum Job {
    Benchmark(FullId, Box<BenchmarkConfig>),
    GroupEnd(GroupEnd),
}

/// The waiting jobs of one `Criterion`.
#[derive(Default)]
pub(crate) struct Waiting {
    /// Whether benchmarks may wait (`criterion_group!`'s `Criterion`).
    pub allowed: bool,
    pub jobs: Vec<Job>,
}

impl Waiting {
    /// Queues a benchmark; returns its job number.
    pub(crate) fn benchmark(&mut self, id: FullId, config: BenchmarkConfig) -> usize {
        self.jobs.push(Job::Benchmark(id, Box::new(config)));
        self.jobs.len() - 1
    }
}

/// `end`'s members with the waiting ones' times from `typical` (by job);
/// a waiting member that failed is left out, as a failed member is when
/// nothing waits.
pub(crate) fn members(end: GroupEnd, typical: &[Option<f64>]) -> Vec<Member> {
    let mut slots: Vec<Option<f64>> = end.members.iter().map(|m| Some(m.typical)).collect();
    for &(index, job) in &end.waiting {
        slots[index] = typical.get(job).copied().flatten();
    }
    end.members
        .into_iter()
        .zip(slots)
        .filter_map(|(m, t)| t.map(|typical| Member { typical, ..m }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(title: &str, typical: f64) -> Member {
        Member {
            title: title.into(),
            function: None,
            value: None,
            typical,
        }
    }

    #[test]
    fn waiting_members_take_their_jobs_times_and_failed_ones_drop_out() {
        let end = GroupEnd {
            name: "g".into(),
            members: vec![
                member("a", 1.0),
                member("b", f64::NAN),
                member("c", f64::NAN),
            ],
            waiting: vec![(1, 0), (2, 1)],
            compare_by_id: false,
            log_scale: false,
            requirements: Vec::new(),
        };
        let got = members(end, &[Some(2.0), None]);
        let titles: Vec<_> = got.iter().map(|m| (m.title.as_str(), m.typical)).collect();
        assert_eq!(titles, [("a", 1.0), ("b", 2.0)]);
    }
}
