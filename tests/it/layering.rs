//! The house's floors, read from the source: each top-level module of
//! `src/` may name (`crate::x`, `use crate::x::...`) only the modules its
//! row in [`ALLOWED`] lists; `config` is the composition root, so only the
//! entry points above it name it; `std::env` is read in `src/environ.rs`
//! alone. A new module, or a new import across floors, is a line added here
//! on purpose, not an accident.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module -> the modules it may import. Lowest floors first. `config`
/// builds every lower layer's settings; nothing it imports names it.
const ALLOWED: &[(&str, &[&str])] = &[
    ("environ", &[]),
    ("display", &[]),
    ("model", &["display"]),
    ("health", &["display", "model"]),
    // How every child process starts: tmux, git, hosts (ssh) and the
    // dashboard's desktop alert use it.
    ("process", &["environ"]),
    ("tmux", &["display", "model", "process"]),
    ("git", &["display", "model", "process"]),
    ("freshness", &["model", "tmux"]),
    ("sources", &["display", "environ", "model"]),
    ("logging", &["environ", "sources"]),
    ("attention", &["health", "model", "sources"]),
    ("watch", &[]),
    (
        "catalog",
        &[
            "attention",
            "git",
            "health",
            "model",
            "sources",
            "tmux",
            "watch",
        ],
    ),
    (
        "engine",
        &["catalog", "git", "model", "sources", "tmux", "watch"],
    ),
    (
        "ops",
        &[
            "attention",
            "display",
            "engine",
            "environ",
            "git",
            "model",
            "sources",
            "tmux",
        ],
    ),
    (
        "hosts",
        &["display", "environ", "model", "process", "sources", "tmux"],
    ),
    (
        "config",
        &[
            "catalog", "engine", "environ", "health", "hosts", "model", "ops", "sources", "tmux",
        ],
    ),
    // The entry points: above config.
    (
        "hook",
        &["config", "environ", "logging", "model", "sources", "tmux"],
    ),
    (
        "tui",
        &[
            "attention",
            "catalog",
            "config",
            "display",
            "engine",
            "environ",
            "freshness",
            "git",
            "health",
            "hosts",
            "model",
            "ops",
            // The desktop notifier (notify-send), bounded as every child is.
            "process",
            "sources",
            "tmux",
        ],
    ),
    (
        "cli",
        &[
            "attention",
            "catalog",
            "config",
            "display",
            "engine",
            "environ",
            "freshness",
            // The demo makes its agents' git repositories (`git::own_repo`).
            "git",
            "hook",
            "hosts",
            "logging",
            "model",
            "ops",
            "sources",
            "tmux",
            "tui",
        ],
    ),
    ("main", &["*"]),
];

/// The modules that may name `config`: the entry points alone.
const ABOVE_CONFIG: &[&str] = &["hook", "tui", "cli", "main"];

/// Import circles still standing, each as its modules in order; the test
/// fails on any other (and on one of these once it is gone, so the list
/// only shrinks).
const KNOWN_CIRCLES: &[&[&str]] = &[];

/// Files that still read `std::env` (what they read), to be emptied.
const ENV_READERS: &[(&str, &str)] = &[
    ("src/git/guard.rs", "temp_dir"),
    // A test comparing /proc's answer with the process's own.
    ("src/sources/procs.rs", "current_dir"),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for lib.rs).
fn module_of(path: &Path) -> Option<String> {
    let first = path.strip_prefix(src()).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?.trim_end_matches(".rs");
    (name != "lib").then(|| name.to_owned())
}

/// The code of a file without its comment lines (doc comments name
/// modules freely).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Every module named after `prefix` (`crate::`): `crate::x::...` and
/// `crate::{x::..., y}`.
fn named(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::`, `some_crate::`
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                out.insert(ident(part.trim()).to_owned());
            }
        } else {
            out.insert(ident(rest).to_owned());
        }
    }
    out.retain(|m| !m.is_empty() && m != "self");
    out
}

/// Module -> the other modules its files name.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&file) else {
            continue;
        };
        let prefix = if module == "main" {
            "greenroom::"
        } else {
            "crate::"
        };
        let mut names = named(&code(&file), prefix);
        names.remove(&module);
        graph.entry(module).or_default().extend(names);
    }
    graph
}

#[test]
fn each_module_imports_only_the_floors_allowed() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut wrong = Vec::new();
    for (module, names) in imports() {
        let Some(may) = allowed.get(module.as_str()) else {
            wrong.push(format!("{module}: a new module; give it a row in ALLOWED"));
            continue;
        };
        for name in names {
            if !may.contains(&"*") && !may.contains(&name.as_str()) {
                wrong.push(format!("{module} imports {name}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports across floors:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn only_the_entry_points_import_config() {
    let importers: Vec<String> = imports()
        .into_iter()
        .filter(|(m, names)| names.contains("config") && !ABOVE_CONFIG.contains(&m.as_str()))
        .map(|(m, _)| m)
        .collect();
    assert!(
        importers.is_empty(),
        "below config, importing it: {importers:?}"
    );
    for (module, may) in ALLOWED {
        assert!(
            !may.contains(&"config") || ABOVE_CONFIG.contains(module),
            "{module} is allowed config"
        );
    }
}

/// The circles of a graph, each as its sorted members (Tarjan's strongly
/// connected components of more than one module).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    let nodes: Vec<&String> = graph.keys().collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out = BTreeSet::new();
    for n in &nodes {
        let mut circle: Vec<String> = nodes
            .iter()
            .filter(|m| reached[*n].contains(**m) && reached[**m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        circle.sort();
        if circle.len() > 1 {
            out.insert(circle);
        }
    }
    out
}

#[test]
fn no_import_circle_but_the_known_ones() {
    let found = circles(&imports());
    let known: BTreeSet<Vec<String>> = KNOWN_CIRCLES
        .iter()
        .map(|c| c.iter().map(|m| (*m).to_owned()).collect())
        .collect();
    assert_eq!(
        found, known,
        "import circles (update KNOWN_CIRCLES only to shrink it)"
    );
}

#[test]
fn the_environment_is_read_in_environ_alone() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut readers = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src().parent().unwrap()).unwrap();
        let rel = rel.to_string_lossy().into_owned();
        if rel == "src/environ.rs" {
            continue;
        }
        let code = code(&file);
        for (at, _) in code.match_indices("env::") {
            let what = ident(&code[at + "env::".len()..]);
            // Pure helpers, and the arguments clap reads in main.
            let pure = matches!(what, "split_paths" | "join_paths" | "consts")
                || (rel == "src/main.rs" && what == "args_os");
            let known = ENV_READERS.iter().any(|(f, w)| *f == rel && *w == what);
            let path_before = &code[..at];
            let is_std = path_before.ends_with("std::") || code.contains("use std::env");
            if is_std && !pure && !known {
                readers.push(format!("{rel}: env::{what}"));
            }
        }
    }
    assert!(
        readers.is_empty(),
        "read the environment from environ::Environ instead:\n{}",
        readers.join("\n")
    );
}

#[test]
fn the_reader_finds_every_form_of_import() {
    let code = "use crate::tmux::Tmux;\nlet x = crate::model::Session::new();\nuse crate::{health::Thresholds, display};\nmacro_rules! m { () => { $crate::nope } }";
    let found: Vec<String> = named(code, "crate::").into_iter().collect();
    assert_eq!(found, ["display", "health", "model", "tmux"]);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    graph.insert(
        "b".to_owned(),
        BTreeSet::from(["a".to_owned(), "c".to_owned()]),
    );
    graph.insert("c".to_owned(), BTreeSet::new());
    let found = circles(&graph);
    assert_eq!(
        found,
        BTreeSet::from([vec!["a".to_owned(), "b".to_owned()]])
    );
}

/// Inside the dashboard, each part imports only the parts left of it:
/// model ← action ← keymap ← reduce ← shell, and the views read the model,
/// the actions' names and the keymap.
const TUI_ALLOWED: &[(&str, &[&str])] = &[
    ("model", &[]),
    ("action", &["model"]),
    ("keymap", &["action"]),
    ("reduce", &["action", "model"]),
    ("view", &["action", "keymap", "model"]),
    ("shell", &["action", "keymap", "model", "reduce", "view"]),
];

/// Part of `src/tui` -> the other parts its files name (`crate::tui::x`,
/// and `super::x` from the part's own top file, whose parent is `tui`).
fn tui_imports() -> BTreeMap<String, BTreeSet<String>> {
    let tui = src().join("tui");
    let mut files = Vec::new();
    rust_files(&tui, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&tui).unwrap();
        let mut parts = rel.components().map(|c| c.as_os_str().to_str().unwrap());
        let first = parts.next().unwrap();
        let part = first.trim_end_matches(".rs").to_owned();
        if part == "mod" || part == "tests" {
            continue;
        }
        let top_file = first.ends_with(".rs") || rel.ends_with("mod.rs");
        let text = code(&file);
        let mut names = named(&text, "crate::tui::");
        if top_file {
            names.extend(named(&text, "super::"));
        }
        names.retain(|n| TUI_ALLOWED.iter().any(|(p, _)| p == n));
        names.remove(&part);
        graph.entry(part).or_default().extend(names);
    }
    graph
}

#[test]
fn the_dashboards_parts_import_only_leftward() {
    let allowed: BTreeMap<&str, &[&str]> = TUI_ALLOWED.iter().copied().collect();
    let graph = tui_imports();
    assert!(graph.contains_key("reduce") && graph.contains_key("shell"));
    let mut wrong = Vec::new();
    for (part, names) in graph {
        let Some(may) = allowed.get(part.as_str()) else {
            wrong.push(format!(
                "tui/{part}: a new part; give it a row in TUI_ALLOWED"
            ));
            continue;
        };
        for name in names {
            if !may.contains(&name.as_str()) {
                wrong.push(format!("tui/{part} imports tui/{name}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports across the dashboard's parts:\n{}",
        wrong.join("\n")
    );
}
