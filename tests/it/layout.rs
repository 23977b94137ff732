//! The source tree's data flow: no import cycle between the library's
//! top-level modules (parse → tables → dataset → metrics → render/CLI), and
//! the dataset written only through its writer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module → the top-level modules its code (not its comments or
/// tests) names as `crate::X`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap();
            let top = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            let top = top.trim_end_matches(".rs").to_string();
            // The binary (main.rs, cli/) and the crate root may name anything.
            if ["lib", "main", "cli"].contains(&top.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let entry = deps.entry(top.clone()).or_default();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (i, _) in line.match_indices("crate::") {
                    let name: String = line[i + 7..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if name != top && name != "Error" && !name.is_empty() {
                        entry.insert(name);
                    }
                }
            }
        }
    }
    deps
}

/// A cycle through `start`, if any (depth-first).
fn cycle(
    deps: &BTreeMap<String, BTreeSet<String>>,
    start: &str,
    at: &str,
    path: &mut Vec<String>,
) -> Option<Vec<String>> {
    for next in deps.get(at).into_iter().flatten() {
        if next == start {
            let mut c = path.clone();
            c.push(next.clone());
            return Some(c);
        }
        if !path.contains(next) {
            path.push(next.clone());
            if let Some(c) = cycle(deps, start, next, path) {
                return Some(c);
            }
            path.pop();
        }
    }
    None
}

#[test]
fn top_level_modules_import_without_cycles() {
    let deps = imports();
    for (m, to) in &deps {
        eprintln!(
            "{m} -> {}",
            to.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    for m in deps.keys() {
        let c = cycle(&deps, m, m, &mut vec![m.clone()]);
        assert!(c.is_none(), "import cycle: {}", c.unwrap().join(" -> "));
    }
    // The layers at the bottom import nothing above them.
    assert_eq!(
        deps["dataset"].iter().collect::<Vec<_>>(),
        ["schema"],
        "the dataset layer imports only the schema"
    );
    assert!(!deps["metrics"].contains("render"));
}

/// Only the dataset writer takes the dataset's lock.
#[test]
fn only_the_dataset_writer_takes_the_lock() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    let mut takers = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read_to_string(&p)
                .unwrap()
                .contains("DatasetLock::acquire(")
            {
                takers.push(p.strip_prefix(&src).unwrap().display().to_string());
            }
        }
    }
    takers.sort();
    assert_eq!(takers, ["dataset/lock.rs", "dataset/writer.rs"]);
}
