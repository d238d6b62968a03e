// greenroom's OpenCode plugin, format @FORMAT@. Written by `greenroom hooks install --agent opencode`:
// greenroom replaces this file when it installs again and removes it when it uninstalls, so edit a copy
// under another name. It tells the greenroom dashboard what this OpenCode does (working, waiting for a
// permission or an answer and for what, idle, failed) by running `greenroom report` with one small JSON event on stdin.
// It never holds OpenCode up: reports run one at a time in the background, and when greenroom is gone
// or slow they are dropped without a word.
import { spawn } from "node:child_process"

const GREENROOM = @GREENROOM@
const EVENTS = new Set(["session.created", "session.status", "session.idle", "session.error", "permission.asked", "permission.replied", "question.asked", "question.replied", "question.rejected"])
// Bounds on what one report carries and on what waits to be sent.
const MAX_TEXT = 2000
const MAX_LIST = 16
const MAX_QUEUE = 64
const MAX_TRACKED = 256
const REPORT_TIMEOUT_MS = 10000

const text = (v) => (typeof v === "string" ? v.slice(0, MAX_TEXT) : undefined)
const texts = (v) => (Array.isArray(v) ? v.slice(0, MAX_LIST).filter((s) => typeof s === "string").map(text) : undefined)

// A set that forgets its oldest entries past a bound.
function remember(set, key) {
  set.delete(key)
  set.add(key)
  while (set.size > MAX_TRACKED) set.delete(set.values().next().value)
}

// Only what greenroom reads: which session, and for a permission what it asks to do (never a diff).
function properties(type, p) {
  switch (type) {
    case "session.created":
      return { sessionID: text(p.sessionID), info: { id: text(p.info?.id), parentID: text(p.info?.parentID) } }
    case "session.status":
      return { sessionID: text(p.sessionID), status: { type: text(p.status?.type), message: text(p.status?.message) } }
    case "permission.asked": {
      const m = p.metadata ?? {}
      const metadata = { command: text(m.command), filepath: text(m.filepath), url: text(m.url), pattern: text(m.pattern) }
      return { id: text(p.id), sessionID: text(p.sessionID), permission: text(p.permission), patterns: texts(p.patterns), metadata }
    }
    case "permission.replied":
      return { sessionID: text(p.sessionID), requestID: text(p.requestID), reply: text(p.reply) }
    case "question.asked": {
      // Each question's words and its choices' labels (their descriptions stay behind).
      const list = Array.isArray(p.questions) ? p.questions.slice(0, MAX_LIST) : []
      const questions = list.map((q) => ({
        question: text(q?.question),
        options: Array.isArray(q?.options) ? q.options.slice(0, MAX_LIST).map((o) => ({ label: text(o?.label) })) : [],
      }))
      return { id: text(p.id), sessionID: text(p.sessionID), questions }
    }
    case "question.replied":
    case "question.rejected":
      return { sessionID: text(p.sessionID), requestID: text(p.requestID) }
    case "session.error": {
      const e = p.error ?? {}
      return { sessionID: text(p.sessionID), error: { name: text(e.name), data: { message: text(e.data?.message) } } }
    }
    default:
      return { sessionID: text(p.sessionID) }
  }
}

function reporter(directory) {
  const subagents = new Set()
  const pending = new Map()
  const queue = []
  let running = false

  function send(body) {
    if (queue.length >= MAX_QUEUE) queue.shift()
    queue.push(body)
    if (!running) next()
  }

  function next() {
    const body = queue.shift()
    running = body !== undefined
    if (running) report(body, next)
  }

  // One `greenroom report`, no shell; `done` runs once, whatever happens.
  function report(body, done) {
    let finished = false
    let timer
    const finish = () => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      done()
    }
    try {
      const child = spawn(GREENROOM, ["report"], { stdio: ["pipe", "ignore", "ignore"], shell: false })
      timer = setTimeout(() => {
        try {
          child.kill("SIGKILL")
        } catch {}
        finish()
      }, REPORT_TIMEOUT_MS)
      timer.unref?.()
      child.on("error", finish)
      child.on("close", finish)
      child.stdin.on("error", () => {})
      child.stdin.end(body)
      child.unref?.()
    } catch {
      finish()
    }
  }

  function event(e) {
    const type = e?.type
    const p = e?.properties
    if (!EVENTS.has(type) || typeof p !== "object" || p === null) return
    const parent = p.info?.parentID
    if (type === "session.created" && typeof parent === "string" && typeof p.info?.id === "string") {
      remember(subagents, p.info.id)
    }
    const subagent = subagents.has(p.sessionID) || typeof parent === "string"
    // A subagent's own turns are its parent's: only what it asks (a permission, a question) stops the
    // operator's agent.
    const asks = type.startsWith("permission.") || type.startsWith("question.")
    if (subagent && !asks) return
    const payload = { type, properties: properties(type, p), directory: text(directory), subagent }
    if (type === "permission.asked") {
      if (typeof p.id === "string") pending.set(p.id, payload)
      while (pending.size > MAX_TRACKED) pending.delete(pending.keys().next().value)
    }
    if (type === "permission.replied") {
      pending.delete(p.requestID)
      // Another prompt still waits: the agent still waits for the operator.
      const waiting = p.reply !== "reject" ? [...pending.values()].pop() : undefined
      if (p.reply === "reject") pending.clear()
      if (waiting) return send(JSON.stringify(waiting))
    }
    send(JSON.stringify(payload))
  }

  return event
}

export default {
  id: "greenroom",
  server: async (input) => {
    const event = reporter(input?.directory)
    return {
      event: async ({ event: e } = {}) => {
        try {
          event(e)
        } catch {}
      },
    }
  },
}
