//! greenroom's entries edited into the settings text itself: only the
//! spans greenroom owns are rewritten (`sources::json_spans` says where
//! each value is), so everything else stays byte for byte: the user's
//! numbers, duplicate keys, line endings and indentation. Text greenroom
//! adds follows the file's own layout (its line ending, its indent unit,
//! one line per entry or all on one line).

use std::ops::Range;

use serde_json::{Map, Value};

use super::{HookAgent, events, greenroom_group, is_greenroom_command, wrong_type};
use crate::sources::json_spans::{self, Kind, Node};

mod layout;
use layout::{Entry, Layout, indent_in, space_before};

/// `at` of the original text becomes `text`.
struct Edit {
    at: Range<usize>,
    text: String,
}

/// What happens to one item of a list or member of an object.
#[derive(Clone)]
enum Plan {
    Keep,
    Delete,
    /// A list item replaced by this value.
    Replace(Value),
}

/// The settings text with greenroom's group in each of the agent's events:
/// an older greenroom entry is replaced where it stood, a new one goes at
/// the end of its event's list. `text` is a JSON object.
pub fn install(text: &str, agent: HookAgent, command: &str) -> Result<String, String> {
    let root = parse(text)?;
    let layout = Layout::of(text, &root);
    let group = |event: &str| greenroom_group(agent, event, command);
    let Some(hooks) = root.member("hooks").map(|m| &m.value) else {
        let all: Map<String, Value> = events(agent)
            .iter()
            .map(|&e| (e.to_owned(), Value::Array(vec![group(e)])))
            .collect();
        let entry = Entry {
            key: Some("hooks".into()),
            value: Value::Object(all),
        };
        let edits = container_edits(text, &root, &keep_all(&root), None, vec![entry], &layout);
        return apply(text, edits);
    };
    if !matches!(hooks.kind, Kind::Object(_)) {
        return Err(wrong_type("", hooks.kind_name()));
    }
    let mut edits = Vec::new();
    let mut new_events = Vec::new();
    for &event in events(agent) {
        let Some(list) = hooks.member(event).map(|m| &m.value) else {
            new_events.push(Entry {
                key: Some(event.to_owned()),
                value: Value::Array(vec![group(event)]),
            });
            continue;
        };
        let Kind::Array(groups) = &list.kind else {
            return Err(wrong_type(event, list.kind_name()));
        };
        let Stripped {
            mut plan,
            nested,
            first,
        } = strip(text, groups, &layout);
        edits.extend(nested);
        let mut after = None;
        let mut append = Vec::new();
        match first {
            // Where greenroom's entry stood: a re-install moves nothing.
            Some(i) if matches!(plan[i], Plan::Delete) => plan[i] = Plan::Replace(group(event)),
            Some(i) => after = Some((i, group(event))),
            None => append.push(Entry {
                key: None,
                value: group(event),
            }),
        }
        edits.extend(container_edits(text, list, &plan, after, append, &layout));
    }
    edits.extend(container_edits(
        text,
        hooks,
        &keep_all(hooks),
        None,
        new_events,
        &layout,
    ));
    apply(text, edits)
}

/// The settings text without greenroom's hooks, in every event (an older
/// greenroom may have hooked events this one does not); an event's list
/// this empties goes, and `hooks` too when that empties it.
pub fn uninstall(text: &str, agent: HookAgent) -> Result<String, String> {
    let root = parse(text)?;
    let layout = Layout::of(text, &root);
    let Some(hooks) = root.member("hooks").map(|m| &m.value) else {
        return Ok(text.to_owned());
    };
    let Kind::Object(members) = &hooks.kind else {
        return Err(wrong_type("", hooks.kind_name()));
    };
    for &event in events(agent) {
        if let Some(m) = hooks
            .member(event)
            .filter(|m| !matches!(m.value.kind, Kind::Array(_)))
        {
            return Err(wrong_type(event, m.value.kind_name()));
        }
    }
    let mut edits = Vec::new();
    let mut plan = Vec::new();
    let mut emptied = false;
    for member in members {
        // A key written twice: readers keep the last, so only it is greenroom's.
        let read = hooks
            .member(&member.key)
            .is_some_and(|m| std::ptr::eq(m, member));
        let Kind::Array(groups) = &member.value.kind else {
            plan.push(Plan::Keep);
            continue;
        };
        let stripped = strip(text, groups, &layout);
        if !read || stripped.first.is_none() {
            plan.push(Plan::Keep);
        } else if stripped.plan.iter().all(|p| matches!(p, Plan::Delete)) {
            plan.push(Plan::Delete);
            emptied = true;
        } else {
            edits.extend(stripped.nested);
            let list = container_edits(
                text,
                &member.value,
                &stripped.plan,
                None,
                Vec::new(),
                &layout,
            );
            edits.extend(list);
            plan.push(Plan::Keep);
        }
    }
    if emptied && plan.iter().all(|p| matches!(p, Plan::Delete)) {
        let Kind::Object(top) = &root.kind else {
            return Ok(text.to_owned());
        };
        let hooks_member = root.member("hooks");
        let top_plan: Vec<Plan> = top
            .iter()
            .map(|m| {
                if hooks_member.is_some_and(|h| std::ptr::eq(h, m)) {
                    Plan::Delete
                } else {
                    Plan::Keep
                }
            })
            .collect();
        let edits = container_edits(text, &root, &top_plan, None, Vec::new(), &layout);
        return apply(text, edits);
    }
    edits.extend(container_edits(
        text,
        hooks,
        &plan,
        None,
        Vec::new(),
        &layout,
    ));
    apply(text, edits)
}

fn parse(text: &str) -> Result<Node, String> {
    let root = json_spans::parse(text).map_err(|e| format!("cannot be read as JSON: {e}"))?;
    match root.kind {
        Kind::Object(_) => Ok(root),
        _ => Err(format!(
            "holds a JSON {}, where settings must be a JSON object; not changed",
            root.kind_name()
        )),
    }
}

/// An event's list of groups with greenroom's hooks taken out.
struct Stripped {
    /// Delete for a group that held only greenroom's hooks.
    plan: Vec<Plan>,
    /// Inside a group that also holds other hooks: greenroom's taken out.
    nested: Vec<Edit>,
    /// The first group greenroom's hooks were taken from.
    first: Option<usize>,
}

fn strip(text: &str, groups: &[Node], layout: &Layout) -> Stripped {
    let mut out = Stripped {
        plan: Vec::new(),
        nested: Vec::new(),
        first: None,
    };
    for (i, group) in groups.iter().enumerate() {
        let hooks = group.member("hooks").map(|m| &m.value);
        let Some((list, Kind::Array(hooks))) = hooks.map(|h| (h, &h.kind)) else {
            out.plan.push(Plan::Keep);
            continue;
        };
        let plan: Vec<Plan> = hooks
            .iter()
            .map(|h| {
                if is_greenroom_hook(h) {
                    Plan::Delete
                } else {
                    Plan::Keep
                }
            })
            .collect();
        let ours = plan.iter().filter(|p| matches!(p, Plan::Delete)).count();
        if ours == 0 {
            out.plan.push(Plan::Keep);
            continue;
        }
        out.first.get_or_insert(i);
        if ours == hooks.len() {
            out.plan.push(Plan::Delete);
        } else {
            let edits = container_edits(text, list, &plan, None, Vec::new(), layout);
            out.nested.extend(edits);
            out.plan.push(Plan::Keep);
        }
    }
    out
}

fn is_greenroom_hook(hook: &Node) -> bool {
    hook.member("command")
        .is_some_and(|c| matches!(&c.value.kind, Kind::String(s) if is_greenroom_command(s)))
}

fn keep_all(node: &Node) -> Vec<Plan> {
    vec![Plan::Keep; item_spans(node).len()]
}

/// Each item's span: a list's values, an object's members.
fn item_spans(node: &Node) -> Vec<Range<usize>> {
    match &node.kind {
        Kind::Object(members) => members.iter().map(|m| m.span.clone()).collect(),
        Kind::Array(items) => items.iter().map(|i| i.span.clone()).collect(),
        _ => Vec::new(),
    }
}

/// The edits that carry out `plan` on a list or object, then put `after`'s
/// value just after its item and `append` at the end. A deleted item goes
/// with the comma and the space that separate it, so a later insert and
/// delete of the same entry gives back the same bytes.
fn container_edits(
    text: &str,
    node: &Node,
    plan: &[Plan],
    after: Option<(usize, Value)>,
    append: Vec<Entry>,
    layout: &Layout,
) -> Vec<Edit> {
    let items = item_spans(node);
    let inside = node.span.start + 1..node.span.end - 1;
    let survives = |i: usize| !matches!(plan.get(i), Some(Plan::Delete));
    let Some(last) = (0..items.len()).rev().find(|&i| survives(i)) else {
        // Nothing of the old contents stays: the inside is written anew.
        if items.is_empty() && append.is_empty() {
            return Vec::new();
        }
        let text = layout.fill(text, node.span.start, &append);
        return vec![Edit { at: inside, text }];
    };
    let mut edits = Vec::new();
    for (i, span) in items.iter().enumerate() {
        match &plan[i] {
            Plan::Keep => {}
            Plan::Replace(value) => {
                let sep = space_before(text, span.start);
                let entry = Entry {
                    key: None,
                    value: value.clone(),
                };
                let rendered = layout.render(&entry, indent_in(sep));
                edits.push(Edit {
                    at: span.clone(),
                    text: rendered,
                });
            }
            Plan::Delete => {
                // With an item after it that stays: up to that item;
                // else from the end of the one before (one stays).
                let at = if (i + 1..items.len()).any(survives) {
                    span.start..items[i + 1].start
                } else {
                    items[i - 1].end..span.end
                };
                edits.push(Edit {
                    at,
                    text: String::new(),
                });
            }
        }
    }
    let after = after.map(|(i, value)| (i, Entry { key: None, value }));
    let inserts = after
        .into_iter()
        .chain(append.into_iter().map(|e| (last, e)));
    for (i, entry) in inserts {
        let sep = space_before(text, items[i].start);
        let rendered = layout.render(&entry, indent_in(sep));
        edits.push(Edit {
            at: items[i].end..items[i].end,
            text: format!(",{sep}{rendered}"),
        });
    }
    edits
}

/// The original text with the edits made; they never overlap (an insert
/// at the point a deletion starts goes first).
fn apply(text: &str, mut edits: Vec<Edit>) -> Result<String, String> {
    edits.sort_by_key(|e| (e.at.start, e.at.end));
    let mut out = String::with_capacity(text.len() + 4096);
    let mut done = 0;
    for edit in edits {
        if edit.at.start < done {
            return Err("greenroom's edits of it overlap; not changed".into());
        }
        out.push_str(&text[done..edit.at.start]);
        out.push_str(&edit.text);
        done = edit.at.end;
    }
    out.push_str(&text[done..]);
    Ok(out)
}
