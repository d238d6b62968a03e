//! Every real Maestro state file in tests/fixtures/real/maestro-state/,
//! read through the public API and checked value by value, plus state-folder
//! resolution and `read_location` against real folders.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};

use greenroom::model::{Orchestration, PhaseId, PhaseStatus, TokenCounts};
use greenroom::sources::maestro::{
    self, StateLocation, location_for_workspace, read_active_agent, read_location, read_state_file,
    resolve_state_dir,
};

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/maestro-state"
);

/// Every fixture this file checks; a new fixture must get a test of its own.
const KNOWN: [&str; 12] = [
    "4awmy-Classroom-Emotion-System__active-session__custom-downstream-keys.md",
    "4awmy-NUM-CORE__active-session__standard-in-progress-no-phase-names.md",
    "Bracth-arbiMerge__active-session__express-in-progress.md",
    "Bracth-arbiMerge__archive__dockerization-double-quoted-flow-seqs.md",
    "DanushArun-portfolio__active-session__JSON-frontmatter-embedded-markdown.md",
    "Maxilo92-ABI-Planer__active-session__empty-agents-abs-path.md",
    "SJOSKA2211-bsopt__active-session__nested-downstream-context-parallel-true.md",
    "Vorce-Studios-Vorce__archive__2026-03-21-modern-ui-layout.md",
    "bladexp210-maker-framework-extension__gemini-state-active-session__failed-phase-blocked-token-usage.md",
    "pohi99999-mcp-brunella-core__active-session__handwritten-backslash-quotes-flow-seqs.md",
    "robertpelloni-Maestro__archive__2026-03-23-sandbox-hardening.md",
    "robertpelloni-npp__active-session__handwritten-minimal-duplicate-ids.md",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// Reads a fixture the way the catalog does; archive files are read as archived.
fn read(name: &str) -> Orchestration {
    let archived = name.contains("__archive__");
    read_state_file(&fixture(name), Path::new("/ws"), archived)
        .unwrap_or_else(|p| panic!("{name} must parse: {p}"))
}

fn ids(o: &Orchestration) -> Vec<String> {
    o.phases.iter().map(|p| p.id.to_string()).collect()
}

fn names(o: &Orchestration) -> Vec<Option<&str>> {
    o.phases.iter().map(|p| p.name.as_deref()).collect()
}

fn statuses(o: &Orchestration) -> Vec<&str> {
    o.phases.iter().map(|p| p.status.as_str()).collect()
}

fn agents(o: &Orchestration) -> Vec<String> {
    o.phases.iter().map(|p| p.agents.join(",")).collect()
}

fn error_counts(o: &Orchestration) -> Vec<usize> {
    o.phases.iter().map(|p| p.errors.len()).collect()
}

/// Zero totals and an empty `by_agent`, as the skill's template writes them.
fn assert_zero_tokens(o: &Orchestration) {
    let t = o.token_usage.as_ref().expect("token_usage is written");
    assert_eq!((t.input, t.output, t.cached), (0, 0, 0));
    assert!(t.by_agent.is_empty());
}

fn header(o: &Orchestration) -> (Option<&str>, Option<&str>, Option<PhaseId>, Option<u64>) {
    (
        o.status.as_deref(),
        o.workflow_mode.as_deref(),
        o.current_phase.clone(),
        o.total_phases,
    )
}

#[test]
fn every_fixture_parses_and_is_covered() {
    let mut seen = Vec::new();
    for entry in fs::read_dir(FIXTURES).unwrap_or_else(|e| panic!("{FIXTURES}: {e}")) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let orch =
            read_state_file(&path, Path::new("/ws"), false).unwrap_or_else(|p| panic!("{p}"));
        assert_eq!(orch.path, path);
        assert_eq!(orch.workspace, Path::new("/ws"));
        assert!(!orch.phases.is_empty(), "{name}: phases");
        assert!(orch.session_id.is_some(), "{name}: session_id");
        assert!(
            KNOWN.contains(&name.as_str()),
            "{name} has no test of its own"
        );
        seen.push(name);
    }
    seen.sort();
    assert_eq!(seen, KNOWN);
}

#[test]
fn robertpelloni_maestro_archive_completed() {
    let o = read(KNOWN[10]);
    assert_eq!(
        o.session_id.as_deref(),
        Some("2026-03-23-sandbox-hardening")
    );
    assert_eq!(
        o.task.as_deref(),
        Some("implement sandbox hardening and path validation for Borg environments")
    );
    assert_eq!(
        header(&o),
        (
            Some("completed"),
            Some("standard"),
            Some(PhaseId::Number(3)),
            Some(3)
        )
    );
    assert_eq!(o.created.as_deref(), Some("2026-03-25T21:57:32.254Z"));
    assert_eq!(o.updated.as_deref(), Some("2026-03-25T22:16:00.664Z"));
    assert!(o.archived);
    assert_eq!(ids(&o), ["1", "2", "3"]);
    assert_eq!(
        names(&o),
        [
            Some("Policy Definition & Guard Implementation"),
            Some("ProcessManager Integration"),
            Some("Security Validation & Bypass Testing"),
        ]
    );
    assert_eq!(statuses(&o), ["completed"; 3]);
    assert_eq!(agents(&o), ["security_engineer", "coder", "tester"]);
    assert_eq!(error_counts(&o), [0, 0, 0]);
    // Phase 2 was never marked started, yet completed: shown as written.
    assert_eq!(o.phases[1].started, None);
    assert_eq!(
        o.phases[1].completed.as_deref(),
        Some("2026-03-25T22:13:28.349Z")
    );
    assert_eq!(o.phases[1].warnings, ["none"]);
    assert_eq!(o.phases[0].warnings, Vec::<String>::new());
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
    assert!(o.is_completed());
}

#[test]
fn bracth_active_express_single_phase() {
    let o = read(KNOWN[2]);
    assert_eq!(o.session_id.as_deref(), Some("clean-seed-db-20260324-1845"));
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("express"),
            Some(PhaseId::Number(1)),
            Some(1)
        )
    );
    assert_eq!(ids(&o), ["1"]);
    assert_eq!(names(&o), [Some("implementation")]);
    assert_eq!(o.phases[0].status, PhaseStatus::InProgress);
    assert_eq!(agents(&o), ["coder"]);
    assert_eq!(error_counts(&o), [0]);
    assert_eq!(
        o.phases[0].started.as_deref(),
        Some("2026-03-24T19:17:52.685Z")
    );
    assert_eq!(o.phases[0].completed, None);
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
    assert!(o.has_phase_in_progress());
}

#[test]
fn num_core_phases_without_names() {
    let o = read(KNOWN[1]);
    assert_eq!(o.session_id.as_deref(), Some("num-core-completion"));
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(3)),
            Some(3)
        )
    );
    assert_eq!(ids(&o), ["1", "2", "3"]);
    assert_eq!(names(&o), [None, None, None]);
    assert_eq!(statuses(&o), ["completed", "completed", "in_progress"]);
    assert_eq!(agents(&o), ["coder", "coder", "coder"]);
    assert_eq!(error_counts(&o), [0, 0, 0]);
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

#[test]
fn vorce_archive_quoted_names_with_colons() {
    let o = read(KNOWN[7]);
    assert_eq!(o.session_id.as_deref(), Some("2026-03-21-modern-ui-layout"));
    assert_eq!(
        header(&o),
        (
            Some("completed"),
            Some("standard"),
            Some(PhaseId::Number(4)),
            Some(4)
        )
    );
    assert_eq!(ids(&o), ["1", "2", "3", "4"]);
    assert_eq!(
        names(&o),
        [
            Some("Phase 1: Slot Core (Foundations)"),
            Some("Phase 2: Adaptive Inspector (Ergonomics)"),
            Some("Phase 3: Custom Node Skins (Aesthetics)"),
            Some("Phase 4: Polish & Performance (Cleanup)"),
        ]
    );
    assert_eq!(statuses(&o), ["completed"; 4]);
    assert_eq!(
        agents(&o),
        [
            "refactor",
            "ux_designer",
            "design_system_engineer",
            "performance_engineer"
        ]
    );
    assert_eq!(error_counts(&o), [0; 4]);
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

#[test]
fn classroom_free_form_downstream_context() {
    let o = read(KNOWN[0]);
    assert_eq!(o.session_id.as_deref(), Some("phase-1-backend-completion"));
    assert!(
        o.task
            .as_deref()
            .unwrap()
            .starts_with("Delegate multiple agents")
    );
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(2)),
            Some(4)
        )
    );
    assert_eq!(ids(&o), ["1", "2", "3", "4"]);
    assert_eq!(names(&o), [None; 4]);
    assert_eq!(
        statuses(&o),
        ["completed", "in_progress", "pending", "pending"]
    );
    assert_eq!(agents(&o), ["coder", "coder", "devops_engineer", "tester"]);
    assert_eq!(error_counts(&o), [0; 4]);
    // `pr_id: 250` and friends are free-form context, not warnings.
    assert!(o.phases.iter().all(|p| p.warnings.is_empty()));
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

#[test]
fn danusharun_json_frontmatter_in_progress_though_all_completed() {
    let o = read(KNOWN[4]);
    assert_eq!(o.session_id.as_deref(), Some("session-20260427-092305"));
    assert!(
        o.task
            .as_deref()
            .unwrap()
            .contains("Interstellar wormhole transition")
    );
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(4)),
            Some(4)
        )
    );
    assert_eq!(o.created.as_deref(), Some("2026-04-27T12:53:52.629Z"));
    assert_eq!(ids(&o), ["1", "2", "3", "4"]);
    assert_eq!(names(&o), [None; 4]);
    assert_eq!(statuses(&o), ["completed"; 4]);
    assert!(o.phases.iter().all(|p| p.agents.is_empty()));
    assert_eq!(error_counts(&o), [0; 4]);
    assert_zero_tokens(&o);
    assert_eq!(
        o.contradictions,
        ["status is in_progress, but every phase is completed"]
    );
}

#[test]
fn maxilo92_empty_agents() {
    let o = read(KNOWN[5]);
    assert_eq!(
        o.session_id.as_deref(),
        Some("2026-03-26-settings-restructure-v1")
    );
    assert_eq!(
        o.task.as_deref(),
        Some("Settings Restructuring & GDPR Cleanup")
    );
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(2)),
            Some(2)
        )
    );
    assert_eq!(ids(&o), ["1", "2"]);
    assert_eq!(
        names(&o),
        [
            Some("Referral Page Cleanup"),
            Some("Settings Page Restructuring")
        ]
    );
    assert_eq!(statuses(&o), ["completed", "in_progress"]);
    assert_eq!(agents(&o), ["", ""]);
    assert_eq!(error_counts(&o), [0, 0]);
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

#[test]
fn sjoska_nested_downstream_context() {
    let o = read(KNOWN[6]);
    assert_eq!(o.session_id.as_deref(), Some("mlops-revamp-20260330"));
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(5)),
            Some(6)
        )
    );
    assert_eq!(ids(&o), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(names(&o), [None; 6]);
    assert_eq!(
        statuses(&o),
        [
            "completed",
            "completed",
            "completed",
            "completed",
            "in_progress",
            "pending"
        ]
    );
    assert_eq!(
        agents(&o),
        [
            "refactor",
            "coder",
            "coder",
            "coder",
            "tester",
            "technical_writer"
        ]
    );
    assert_eq!(error_counts(&o), [0; 6]);
    assert_zero_tokens(&o);
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

#[test]
fn pohi99999_backslash_quotes_are_unwrapped_and_flagged() {
    let o = read(KNOWN[9]);
    assert_eq!(
        o.session_id.as_deref(),
        Some("2026-04-20-system-validation")
    );
    assert_eq!(
        o.task.as_deref(),
        Some("Full system validation of Brunella Phase 5 structure.")
    );
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(1)),
            Some(6)
        )
    );
    assert_eq!(o.created.as_deref(), Some("2026-04-20T11:20:00Z"));
    assert_eq!(ids(&o), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(
        names(&o),
        [
            Some("Environment Readiness"),
            Some("Backend & AI Warming"),
            Some("Core & Dashboard Boot"),
            Some("Dashboard E2E Audit"),
            Some("CLI & Proactive Loop Audit"),
            Some("Final Reporting"),
        ]
    );
    assert_eq!(statuses(&o), ["pending"; 6]);
    assert!(o.phases.iter().all(|p| p.status == PhaseStatus::Pending));
    assert_eq!(
        agents(&o),
        [
            "debugger",
            "debugger",
            "coder",
            "tester",
            "tester",
            "performance_engineer"
        ]
    );
    assert_eq!(error_counts(&o), [0; 6]);
    assert!(o.phases.iter().all(|p| p.retry_count == 0));
    assert_eq!(o.phases[0].started.as_deref(), Some("2026-04-20T11:25:00Z"));
    assert_eq!(
        o.phases[0].completed.as_deref(),
        Some("2026-04-20T11:35:00Z")
    );
    assert_zero_tokens(&o);
    assert_eq!(
        o.contradictions,
        [
            "values are wrapped in literal \\\" quotes; read without them",
            "phase 1 is pending but has a completed time (2026-04-20T11:35:00Z)",
        ]
    );
}

#[test]
fn npp_handwritten_duplicate_ids_and_singular_agent() {
    let o = read(KNOWN[11]);
    assert_eq!(o.session_id.as_deref(), Some("npp-bobui-overhaul"));
    assert_eq!(o.task, None);
    assert_eq!(o.created, None);
    assert_eq!(
        header(&o),
        (None, Some("standard"), Some(PhaseId::Number(1)), None)
    );
    assert_eq!(o.token_usage, None);
    assert_eq!(ids(&o), ["1", "2", "3", "3", "4", "5"]);
    assert_eq!(
        names(&o),
        [
            Some("Design"),
            Some("Infrastructure (Phase 2.1)"),
            Some("Core UI Scaffolding (Phase 2.2)"),
            Some("Implementation (Core)"),
            Some("TextFX Integration"),
            Some("Validation & QA"),
        ]
    );
    assert_eq!(
        statuses(&o),
        [
            "completed",
            "completed",
            "in_progress",
            "pending",
            "pending",
            "pending"
        ]
    );
    assert_eq!(
        agents(&o),
        [
            "architect",
            "architect",
            "coder",
            "coder",
            "coder",
            "tester"
        ]
    );
    assert_eq!(error_counts(&o), [0; 6]);
    assert!(
        o.phases
            .iter()
            .all(|p| p.retry_count == 0 && p.started.is_none())
    );
    assert_eq!(
        o.contradictions,
        [
            "phase id 3 is used 2 times",
            "current_phase is 1, but phase 3 is in progress",
        ]
    );
}

#[test]
fn bracth_archive_still_in_progress_with_extra_phase() {
    let o = read(KNOWN[3]);
    assert_eq!(o.session_id.as_deref(), Some("dockerization-20260324-2200"));
    assert_eq!(
        header(&o),
        (
            Some("in_progress"),
            Some("standard"),
            Some(PhaseId::Number(1)),
            Some(5)
        )
    );
    assert!(o.archived);
    assert_eq!(ids(&o), ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(
        names(&o),
        [
            Some("Foundation & Build Context"),
            Some("Backend Dockerfile"),
            Some("Frontend Dockerfile"),
            Some("Orchestration & Root Scripts"),
            Some("Validation & Security Audit"),
            Some("Refinement & Fixes"),
        ]
    );
    assert_eq!(statuses(&o), ["completed"; 6]);
    assert_eq!(
        agents(&o),
        [
            "devops_engineer",
            "devops_engineer",
            "devops_engineer",
            "coder",
            "code_reviewer",
            "devops_engineer",
        ]
    );
    assert_eq!(error_counts(&o), [0; 6]);
    assert_eq!(o.phases[3].warnings.len(), 1);
    assert!(o.phases[3].warnings[0].starts_with("The frontend build is currently failing"));
    assert!(o.phases[4].warnings[0].starts_with("Major issue: Root user in backend."));
    assert_zero_tokens(&o);
    assert_eq!(
        o.contradictions,
        [
            "total_phases says 5, but 6 phases are listed",
            "archived, but its status is still in_progress",
            "status is in_progress, but every phase is completed",
        ]
    );
}

#[test]
fn bladexp210_blocked_with_failed_phase_and_token_usage() {
    let o = read(KNOWN[8]);
    assert_eq!(
        o.session_id.as_deref(),
        Some("2026-02-24-maker-extension-deployment")
    );
    assert_eq!(
        header(&o),
        (Some("blocked"), None, Some(PhaseId::Number(4)), Some(5))
    );
    assert_eq!(o.updated.as_deref(), Some("2026-02-25T15:00:00Z"));
    assert_eq!(ids(&o), ["1", "2", "3", "4", "5"]);
    assert_eq!(
        names(&o),
        [
            Some("Foundation & Readiness"),
            Some("Git Repository Consolidation"),
            Some("Validation & Build"),
            Some("Code Deployment"),
            Some("Verification & Polish"),
        ]
    );
    assert_eq!(
        statuses(&o),
        ["completed", "completed", "completed", "failed", "pending"]
    );
    assert_eq!(
        agents(&o),
        [
            "architect",
            "devops_engineer",
            "tester",
            "devops_engineer",
            "code_reviewer"
        ]
    );
    assert_eq!(error_counts(&o), [0, 0, 0, 1, 0]);
    let failed = &o.phases[3];
    assert_eq!(failed.unresolved_errors(), 1);
    let e = &failed.errors[0];
    assert_eq!(e.agent.as_deref(), Some("devops_engineer"));
    assert_eq!(e.timestamp.as_deref(), Some("2026-02-25T15:10:00Z"));
    assert_eq!(e.kind.as_deref(), Some("dependency"));
    assert_eq!(
        e.message.as_deref(),
        Some("Git Authentication Error: Authentication failed for GitHub remote.")
    );
    assert_eq!(e.resolution.as_deref(), Some("pending"));
    assert!(!e.resolved);
    assert_eq!(
        o.phases[2].warnings,
        ["npm run lint fails due to missing config"]
    );
    assert!(o.has_unresolved_failure());

    let t = o.token_usage.as_ref().unwrap();
    assert_eq!((t.input, t.output, t.cached), (35_000, 15_000, 0));
    let counts = |input, output| TokenCounts {
        input,
        output,
        cached: 0,
    };
    assert_eq!(t.by_agent.len(), 3);
    assert_eq!(t.by_agent["architect"], counts(5_000, 2_000));
    assert_eq!(t.by_agent["devops_engineer"], counts(15_000, 7_000));
    assert_eq!(t.by_agent["tester"], counts(15_000, 6_000));
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
}

/// A temp workspace with the given state folders created.
fn workspace(state_folders: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for folder in state_folders {
        fs::create_dir_all(dir.path().join(folder)).unwrap();
    }
    dir
}

fn loc(workspace: &Path, state_folder: PathBuf) -> StateLocation {
    StateLocation {
        workspace: workspace.to_path_buf(),
        state_folder,
    }
}

#[test]
fn resolve_accepts_workspace_state_dir_and_state_folder() {
    let dir = workspace(&["docs/maestro/state"]);
    let ws = dir.path();
    let expected = loc(ws, ws.join("docs/maestro/state"));
    for arg in [
        ws.to_path_buf(),
        ws.join("docs/maestro"),
        ws.join("docs/maestro/"),
        ws.join("docs/maestro/state"),
    ] {
        assert_eq!(
            resolve_state_dir(&arg, maestro::DEFAULT_STATE_DIR),
            expected,
            "{arg:?}"
        );
    }
    assert_eq!(location_for_workspace(ws, "docs/maestro"), expected);
}

#[test]
fn resolve_falls_back_to_gemini_state_only_when_needed() {
    let legacy = workspace(&[".gemini/state"]);
    let ws = legacy.path();
    assert_eq!(
        resolve_state_dir(ws, "docs/maestro"),
        loc(ws, ws.join(".gemini/state"))
    );
    assert_eq!(
        location_for_workspace(ws, "docs/maestro"),
        loc(ws, ws.join(".gemini/state"))
    );
    assert_eq!(
        resolve_state_dir(&ws.join(".gemini/state"), "docs/maestro"),
        loc(ws, ws.join(".gemini/state"))
    );

    let both = workspace(&[".gemini/state", "docs/maestro/state"]);
    let ws = both.path();
    assert_eq!(
        resolve_state_dir(ws, "docs/maestro"),
        loc(ws, ws.join("docs/maestro/state"))
    );

    // Nothing yet: the preferred folder, so a file appearing later is found.
    let empty = workspace(&[]);
    let ws = empty.path();
    assert_eq!(
        resolve_state_dir(ws, "docs/maestro"),
        loc(ws, ws.join("docs/maestro/state"))
    );
}

#[test]
fn resolve_honours_a_custom_state_dir() {
    let dir = workspace(&["ops/maestro-state/state"]);
    let ws = dir.path();
    let expected = loc(ws, ws.join("ops/maestro-state/state"));
    assert_eq!(resolve_state_dir(ws, "ops/maestro-state"), expected);
    assert_eq!(
        resolve_state_dir(&ws.join("ops/maestro-state"), "ops/maestro-state"),
        expected
    );
    assert_eq!(
        resolve_state_dir(&ws.join("ops/maestro-state/state"), "ops/maestro-state"),
        expected
    );
    // An empty name means the default.
    assert_eq!(
        resolve_state_dir(ws, ""),
        loc(ws, ws.join("docs/maestro/state"))
    );
}

#[test]
fn read_location_reads_active_then_archive_sorted() {
    let dir = workspace(&["docs/maestro/state/archive"]);
    let ws = dir.path();
    let state = ws.join("docs/maestro/state");
    fs::copy(fixture(KNOWN[2]), state.join("active-session.md")).unwrap();
    fs::copy(fixture(KNOWN[3]), state.join("archive/b-dockerization.md")).unwrap();
    fs::copy(fixture(KNOWN[10]), state.join("archive/a-sandbox.md")).unwrap();
    fs::write(state.join("archive/notes.txt"), "not a state file").unwrap();

    let location = resolve_state_dir(ws, "docs/maestro");
    let (found, problems) = read_location(&location, true);
    assert!(problems.is_empty(), "{problems:?}");
    let sessions: Vec<_> = found
        .iter()
        .map(|o| (o.session_id.as_deref().unwrap(), o.archived))
        .collect();
    assert_eq!(
        sessions,
        [
            ("clean-seed-db-20260324-1845", false),
            ("2026-03-23-sandbox-hardening", true),
            ("dockerization-20260324-2200", true),
        ]
    );
    assert!(found.iter().all(|o| o.workspace == ws));
    assert_eq!(found[0].path, state.join("active-session.md"));
    assert_eq!(found[2].path, state.join("archive/b-dockerization.md"));
    assert!(
        found[2]
            .contradictions
            .iter()
            .any(|c| c.starts_with("archived"))
    );

    let (found, problems) = read_location(&location, false);
    assert_eq!((found.len(), problems.len()), (1, 0));
}

#[test]
fn read_location_without_state_is_quiet() {
    let dir = workspace(&[]);
    let (found, problems) = read_location(&resolve_state_dir(dir.path(), "docs/maestro"), true);
    assert!(found.is_empty() && problems.is_empty());
}

#[test]
fn read_location_reads_the_legacy_gemini_folder() {
    let dir = workspace(&[".gemini/state"]);
    let ws = dir.path();
    fs::copy(
        fixture(KNOWN[8]),
        ws.join(".gemini/state/active-session.md"),
    )
    .unwrap();
    let (found, problems) = read_location(&location_for_workspace(ws, "docs/maestro"), true);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(found[0].status.as_deref(), Some("blocked"));
}

#[test]
fn active_agent_from_hook_state() {
    let dir = tempfile::tempdir().unwrap();
    let hooks = dir.path();
    let write = |id: &str, text: &str| {
        fs::create_dir_all(hooks.join(id)).unwrap();
        fs::write(hooks.join(id).join("active-agent"), text).unwrap();
    };
    write("s-1", "  coder \nignored\n");
    write("s-2", "");
    write("s-3", &"x".repeat(500));
    assert_eq!(read_active_agent(hooks, "s-1").as_deref(), Some("coder"));
    assert_eq!(read_active_agent(hooks, "s-2"), None);
    assert_eq!(
        read_active_agent(hooks, "s-3").unwrap().chars().count(),
        200
    );
    assert_eq!(read_active_agent(hooks, "missing"), None);
    assert_eq!(read_active_agent(hooks, "../s-1"), None);
    assert_eq!(read_active_agent(&hooks.join("s-1"), ".."), None);

    // A planted link is not followed.
    fs::create_dir_all(hooks.join("s-4")).unwrap();
    std::os::unix::fs::symlink(
        hooks.join("s-1/active-agent"),
        hooks.join("s-4/active-agent"),
    )
    .unwrap();
    assert_eq!(read_active_agent(hooks, "s-4"), None);
}

#[test]
fn default_hooks_dir_is_per_user() {
    use greenroom::config::Environ;
    // Maestro's own rule: $TMPDIR (else /tmp) / maestro-hooks-<uid>.
    let dir = maestro::default_hooks_dir(&Environ::from_vars([("TMPDIR", "/var/tmp/x")]));
    assert_eq!(dir.parent(), Some(Path::new("/var/tmp/x")));
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let uid = name
        .strip_prefix("maestro-hooks-")
        .expect("maestro-hooks-<uid>");
    assert!(uid.parse::<u32>().is_ok(), "{name}");
    let dir = maestro::default_hooks_dir(&Environ::default());
    assert_eq!(dir, Path::new("/tmp").join(&name));
    // MAESTRO_HOOKS_DIR, when set, is the folder.
    let named = Environ::from_vars([("MAESTRO_HOOKS_DIR", "/h"), ("TMPDIR", "/t")]);
    assert_eq!(maestro::default_hooks_dir(&named), Path::new("/h"));
}
