//! What one script call may spend: VM instructions, memory and wall-clock time. The count
//! hook checks instructions and time every [`CHECK_EVERY`] instructions; memory is the state's
//! allocator limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How many instructions run between two checks of the budget: often enough that a runaway
/// script stops within microseconds of its budget, rarely enough to cost nothing measurable.
pub(super) const CHECK_EVERY: u32 = 1000;

/// The budget of each call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// VM instructions a call may execute (loading the script's top level included).
    pub instructions: u64,
    /// Bytes the call's Lua state may allocate.
    pub memory_bytes: usize,
    /// Wall-clock time a call may take (upstream's one second).
    pub timeout: Duration,
}

impl Default for Limits {
    /// Far above what the shipped customizations use (the largest run well under 100,000
    /// instructions and 1 MiB), far below what would stall the engine's workers. An object
    /// takes about eight times its JSON size as Lua tables, so 64 MiB holds the two largest
    /// objects the API stores (Retain gets desired and observed) with room to work.
    fn default() -> Self {
        Self { instructions: 20_000_000, memory_bytes: 64 << 20, timeout: Duration::from_secs(1) }
    }
}

/// Which budget a call ran out of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Exhausted {
    Instructions(u64),
    Time(Duration),
    Memory(usize),
}

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Instructions(n) => write!(f, "the script ran out of its instruction budget ({n} instructions)"),
            Self::Time(d) => write!(f, "the script ran out of its time budget ({d:?})"),
            Self::Memory(n) => write!(f, "the script ran out of its memory budget ({n} bytes)"),
        }
    }
}

/// The running count of one call, shared with its hook.
#[derive(Clone)]
pub(super) struct Budget(Arc<State>);

struct State {
    instructions: u64,
    timeout: Duration,
    started: Instant,
    spent: AtomicU64,
    /// 0: within budget, 1: instructions, 2: time.
    exhausted: AtomicU8,
    stopped: AtomicBool,
}

impl Budget {
    pub(super) fn new(limits: &Limits) -> Self {
        Self(Arc::new(State {
            instructions: limits.instructions,
            timeout: limits.timeout,
            started: Instant::now(),
            spent: AtomicU64::new(0),
            exhausted: AtomicU8::new(0),
            stopped: AtomicBool::new(false),
        }))
    }

    /// Counts [`CHECK_EVERY`] more instructions; `Err` once a budget is spent, and on every
    /// later check, so a script that catches the error with pcall is stopped again at once.
    pub(super) fn tick(&self) -> Result<(), Exhausted> {
        let s = &self.0;
        if s.stopped.load(Ordering::Relaxed) {
            return Ok(());
        }
        let spent = s.spent.fetch_add(u64::from(CHECK_EVERY), Ordering::Relaxed) + u64::from(CHECK_EVERY);
        if spent > s.instructions {
            s.exhausted.compare_exchange(0, 1, Ordering::Relaxed, Ordering::Relaxed).ok();
        } else if s.started.elapsed() > s.timeout {
            s.exhausted.compare_exchange(0, 2, Ordering::Relaxed, Ordering::Relaxed).ok();
        }
        self.exhausted().map_or(Ok(()), Err)
    }

    /// The budget that ran out, if one did.
    pub(super) fn exhausted(&self) -> Option<Exhausted> {
        match self.0.exhausted.load(Ordering::Relaxed) {
            1 => Some(Exhausted::Instructions(self.0.instructions)),
            2 => Some(Exhausted::Time(self.0.timeout)),
            _ => None,
        }
    }

    /// Ends the count: converting the results back is the interpreter's work, not the script's.
    pub(super) fn stop(&self) {
        self.0.stopped.store(true, Ordering::Relaxed);
    }
}
