//! Summaries the benchmarks print: the median of a set of timings.

use std::time::Duration;

pub fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}
