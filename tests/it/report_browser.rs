//! The demo report as a browser shows it: headless Chromium renders the page
//! (SKIPPED when no Chromium is found, a failure under CI, which installs it)
//! with a checking script appended to a copy, every folded table unfolded;
//! no header may read as a raw column name, every header explains itself on
//! hover, and no cell reads NaN, null or infinity.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use evallab::schema::outputs::OUTPUTS;

use crate::analyze::{evallab, stockfish, text};

/// Chromium: `EVALLAB_CHROMIUM`, else the first of the usual names on PATH.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("EVALLAB_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .flat_map(|n| std::env::split_paths(&path).map(move |d| d.join(n)))
                .find(|p| p.is_file())
        });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI=true but no Chromium found (.ci/run installs the chromium package)"
        );
        eprintln!(
            "SKIPPED: Chromium not found (apt-get install chromium, or EVALLAB_CHROMIUM=PATH)"
        );
    }
    found
}

/// Runs in the rendered page: one line per finding, and the count of headers.
const CHECK: &str = r#"<script>
for (const d of document.querySelectorAll('details')) d.open = true;
// Every event's section laid out, not only those in view.
for (const s of document.querySelectorAll('section')) s.style.contentVisibility = 'visible';
const raw = new Set(RAW_NAMES);
const lines = [];
let headers = 0;
for (const th of document.querySelectorAll('th')) {
  headers++;
  const t = th.innerText.trim();
  if (raw.has(t) || /^[a-z0-9]+(_[a-z0-9]+)+$/.test(t)) lines.push('RAW ' + t);
  if (!th.title || th.title.trim().length < 8) lines.push('UNEXPLAINED ' + t);
}
for (const td of document.querySelectorAll('td')) {
  if (/\b(NaN|null|undefined|Infinity|inf)\b/i.test(td.innerText)) lines.push('CELL ' + td.innerText);
}
// A table wider than the page scrolls in its own box, not the page.
const wide = document.documentElement.scrollWidth - document.documentElement.clientWidth;
if (wide > 1) lines.push('PAGE SCROLLS SIDEWAYS by ' + wide + ' px');
lines.push('HEADERS ' + headers);
const pre = document.createElement('pre');
pre.id = 'check';
pre.textContent = lines.join('\n');
document.body.appendChild(pre);
</script>"#;

/// The page's findings: Chromium's DOM after the script ran, the check's text.
fn check_in_chromium(exe: &Path, page: &Path) -> Vec<String> {
    let html = std::fs::read_to_string(page).unwrap();
    // Column names that are not their own header.
    let names: Vec<String> = OUTPUTS
        .iter()
        .flat_map(|o| o.columns)
        .filter(|c| c.header() != c.name)
        .map(|c| format!("{:?}", c.name))
        .collect();
    let script = CHECK.replace("RAW_NAMES", &format!("[{}]", names.join(",")));
    let checked = page.with_file_name("check.html");
    std::fs::write(
        &checked,
        html.replace("</body>", &format!("{script}</body>")),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    // The DOM into a file: a pipe nobody reads while we wait would fill up
    // and stall Chromium.
    let dom_file = page.with_file_name("dom.html");
    let mut child = Command::new(exe)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", checked.display()))
        .stdout(std::fs::File::create(&dom_file).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("Chromium did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let dom = std::fs::read_to_string(&dom_file).unwrap();
    let start = dom
        .find("<pre id=\"check\">")
        .unwrap_or_else(|| panic!("the check did not run: {}", &dom[..dom.len().min(500)]));
    let body = &dom[start + "<pre id=\"check\">".len()..];
    let body = &body[..body.find("</pre>").unwrap()];
    body.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn demo_report_reads_as_a_report_in_chromium() {
    let Some(exe) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let ok = |args: &[&str]| {
        let out = evallab(args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    };
    ok(&["ingest", "data/demo", "-o", &ds, "--quiet"]);
    // With an engine, the engine-run sections are on the page too.
    if let Some(sf) = stockfish() {
        ok(&[
            "analyze",
            &ds,
            "--uci",
            sf,
            "--nodes",
            "200",
            "--multipv",
            "2",
            "--max-games",
            "1",
            "--label",
            "sf",
        ]);
    }
    let out = dir.path().join("report");
    ok(&["report", &ds, "-o", &out.display().to_string()]);
    let findings = check_in_chromium(&exe, &out.join("index.html"));
    let headers: usize = findings
        .iter()
        .find_map(|l| l.strip_prefix("HEADERS ")?.parse().ok())
        .expect("a header count");
    assert!(headers > 100, "{headers} headers: the page did not render");
    let problems: Vec<&String> = findings
        .iter()
        .filter(|l| !l.starts_with("HEADERS "))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
}
