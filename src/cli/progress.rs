//! Progress of a long command on stderr: a bar on a terminal, JSON lines for
//! a program that reads stderr (the Python API sets `EVALLAB_PROGRESS=json`:
//! a notebook's stderr is no terminal, so the bar would be hidden), else
//! nothing.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use evallab::metrics::Ticker;

use indicatif::{ProgressBar, ProgressStyle};

/// The environment variable that asks for JSON progress lines.
pub const ENV: &str = "EVALLAB_PROGRESS";

/// A reader redraws at most this often; more lines would only cost it time.
const JSON_EVERY: Duration = Duration::from_millis(200);

/// Where progress goes.
pub enum Progress {
    Bar(ProgressBar),
    /// `{"progress":{"done":…,"total":…,"unit":…,"message":…}}` per line.
    Json {
        unit: String,
        last: Option<Instant>,
    },
    Off,
}

impl Progress {
    /// The reporter for a command counting `unit`; `template` is the bar's
    /// indicatif template. `quiet` turns every kind off.
    pub fn new(quiet: bool, unit: &str, template: &str) -> Self {
        if quiet {
            Progress::Off
        } else if std::env::var_os(ENV).is_some_and(|v| v == "json") {
            Progress::Json {
                unit: unit.into(),
                last: None,
            }
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template(template)
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            Progress::Bar(bar)
        } else {
            Progress::Off
        }
    }

    pub fn update(&mut self, done: u64, total: u64, message: impl FnOnce() -> String) {
        match self {
            Progress::Bar(bar) => {
                bar.set_length(total);
                bar.set_position(done);
                bar.set_message(message());
            }
            Progress::Json { unit, last } => {
                // The last update always goes out, so a reader ends at 100%.
                if last.is_some_and(|t| t.elapsed() < JSON_EVERY) && done < total {
                    return;
                }
                *last = Some(Instant::now());
                let line = serde_json::json!({ "progress": {
                    "done": done, "total": total, "unit": unit, "message": message(),
                }});
                // A reader that has gone is no reason to stop the work.
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
            Progress::Off => {}
        }
    }

    /// Clears the bar before the command's summary lines.
    pub fn finish(self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// Progress that the library's worker threads report through a [`Ticker`]
/// (a bootstrap's fits): a bar of `unit` with an ETA, shared by the threads.
pub struct Shared(Arc<Mutex<Progress>>);

impl Shared {
    pub fn new(unit: &str) -> Shared {
        let template =
            format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, ETA {{eta}} {{msg}}");
        Shared(Arc::new(Mutex::new(Progress::new(false, unit, &template))))
    }

    /// The ticker to hand the library; `what` is the bar's message.
    pub fn ticker(&self, what: &'static str) -> Ticker {
        let p = Arc::clone(&self.0);
        Ticker::new(move |done, total| {
            if let Ok(mut p) = p.lock() {
                p.update(done as u64, total as u64, || what.to_string());
            }
        })
    }

    /// Clears the bar (before the command's own lines).
    pub fn finish(self) {
        if let Ok(p) = self.0.lock()
            && let Progress::Bar(bar) = &*p
        {
            bar.finish_and_clear();
        }
    }
}
