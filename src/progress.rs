//! Progress on stderr for long builds and checks (`indicatif`).
//!
//! Off unless the command line turned it on with [`enable`] (it does so when stderr is a terminal
//! and `--quiet` is not given), so library users and tests never draw. A bar stays hidden for its
//! first two seconds (a sleeping thread then shows it unless the phase is over); after that
//! indicatif's steady tick redraws it from a background thread. The builders call
//! [`Progress::states`] every few thousand states (an integer test in their loop), which only
//! stores counters: nothing is drawn from the hot loop.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);

/// How long a phase runs before its progress is shown.
const DELAY: Duration = Duration::from_secs(2);
/// How often the shown bar is redrawn.
const TICK: Duration = Duration::from_millis(200);
/// The builders report every this many states (a power of two: `n & (EVERY - 1) == 0`).
pub(crate) const EVERY: u64 = 1 << 12;

/// Turns progress output on or off for the whole process.
pub fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// One phase's progress: a state count (builds) or specs done of a total (checks).
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    /// What is counted: `states`, `locations`, `specs`.
    unit: &'static str,
}

impl Progress {
    /// A build: states so far, states per second, the breadth-first queue.
    pub(crate) fn build(what: &'static str) -> Progress {
        Progress::new(None, what, &format!("{{spinner}} building {what}: {{human_pos}} {what}, {{msg}} [{{elapsed}}]"))
    }

    /// A check of `total` specs.
    pub(crate) fn check(what: &str, total: u64) -> Progress {
        Progress::new(Some(total), "specs", &format!("{{spinner}} checking {what}: {{pos}}/{{len}} specs done [{{elapsed}}]"))
    }

    fn new(total: Option<u64>, unit: &'static str, template: &str) -> Progress {
        if !ENABLED.load(Ordering::Relaxed) {
            return Progress { bar: None, started: Instant::now(), unit };
        }
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        let delayed = bar.clone();
        let _ = std::thread::Builder::new().name("progress".into()).spawn(move || {
            std::thread::sleep(DELAY);
            if !delayed.is_finished() {
                delayed.set_draw_target(ProgressDrawTarget::stderr());
                delayed.enable_steady_tick(TICK);
            }
        });
        Progress { bar: Some(bar), started: Instant::now(), unit }
    }

    /// `built` states so far, `queue` of them not yet expanded.
    pub(crate) fn states(&self, built: u64, queue: u64) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(built);
        let rate = built as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{rate:.0} {}/s, {queue} queued", self.unit));
    }

    /// `done` specs of the total are checked.
    pub(crate) fn specs(&self, done: u64) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(done);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
