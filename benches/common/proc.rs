//! What a benchmark reads of a process in /proc: its CPU ticks and its
//! children.

/// Clock ticks of a process: user + system, and with `children` its reaped
/// children's too.
pub fn ticks(pid: u32, children: bool) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<u64> = after
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0))
        .collect();
    let own = f.get(11).unwrap_or(&0) + f.get(12).unwrap_or(&0);
    let reaped = f.get(13).unwrap_or(&0) + f.get(14).unwrap_or(&0);
    if children { own + reaped } else { own }
}

/// A process's children, over all its threads.
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"));
    for task in tasks.into_iter().flatten().flatten() {
        let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(
            list.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    out
}

/// greenroom and what it runs: its own ticks with reaped children (the
/// tmux calls), plus its live children (the control client, ssh clients).
pub fn family_ticks(pid: u32) -> u64 {
    ticks(pid, true)
        + children_of(pid)
            .iter()
            .map(|c| ticks(*c, false))
            .sum::<u64>()
}

/// CPU seconds (user + system) a process has used (at 100 ticks a second).
pub fn cpu_seconds(pid: u32) -> f64 {
    ticks(pid, false) as f64 / 100.0
}
