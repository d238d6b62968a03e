#!/bin/sh
# A simulated coding agent for `greenroom demo`. No model, no network: it
# prints the kind of work an agent prints, writes Maestro orchestration state
# the way Maestro does (temp file + rename), appends token usage to a
# Claude-style transcript, and tells greenroom what it is doing the way an
# agent's hooks do (`greenroom report` with a hook payload on stdin).
#
#   sh agent.sh ROLE     ROLE: api web docs infra tests data mobile ml general
#
# Environment: GREENROOM_BIN (the greenroom binary; without it nothing is
# reported), GREENROOM_SESSION_ID and GREENROOM_SIDECAR_DIR (set by
# `greenroom spawn`), MAESTRO_HOOKS_DIR (where the active agent is named).
# Plain POSIX sh: no `local`, no $RANDOM, no bashisms.

ROLE=${1:-general}
DEMO_DIR=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

E=$(printf '\033')
R="${E}[0m" B="${E}[1m" D="${E}[2m" I="${E}[3m"
RED="${E}[31m" GRN="${E}[32m" YEL="${E}[33m" BLU="${E}[34m" MAG="${E}[35m" CYN="${E}[36m"

# ---------------------------------------------------------------- randomness
SEED=$(( ($$ * 7919 + $(printf '%s' "$ROLE" | wc -c) * 104729) % 2147483647 ))
# rand N: a number in 0..N-1 in $RND
rand() {
	SEED=$(( (SEED * 1103515245 + 12345) % 2147483648 ))
	RND=$(( SEED / 65536 % $1 ))
}
# between LOW HIGH: a number in LOW..HIGH in $RND
between() { rand $(( $2 - $1 + 1 )); RND=$(( RND + $1 )); }
# nap: a short pause, 0.4 to 1.6 s, like a model thinking between tool calls
nap() { between 4 16; sleep "$((RND / 10)).$((RND % 10))"; }

now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# ------------------------------------------------------------------ reporting
SID=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n' |
	sed 's/^\(........\)\(....\)\(....\)\(....\)\(............\).*/\1-\2-\3-\4-\5/')
[ -n "$SID" ] || SID="demo-$$-$ROLE"
TRANSCRIPT="$DEMO_DIR/transcripts/$ROLE-$SID.jsonl"

jstr() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }

# hook EVENT [KEY VALUE]...: what an agent hook sends, piped to `greenroom report`
hook() {
	[ -n "$GREENROOM_BIN" ] || return 0
	body="\"hook_event_name\":\"$1\",\"session_id\":\"$SID\",\"cwd\":\"$(jstr "$PWD")\""
	body="$body,\"transcript_path\":\"$(jstr "$TRANSCRIPT")\""
	shift
	while [ $# -ge 2 ]; do
		body="$body,\"$1\":\"$(jstr "$2")\""
		shift 2
	done
	printf '{%s}\n' "$body" | "$GREENROOM_BIN" report >/dev/null 2>&1 || true
}

# spend IN OUT CACHED: one model call's tokens, in the transcript and the
# running Maestro phase
MSG=0
spend() {
	MSG=$((MSG + 1))
	printf '{"type":"assistant","requestId":"req_%s_%d","timestamp":"%s","message":{"id":"msg_%s_%d","model":"claude-sonnet-4-5","role":"assistant","usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d}}}\n' \
		"$SID" "$MSG" "$(now)" "$SID" "$MSG" "$1" "$2" "$3" $(( $1 / 3 )) \
		>>"$TRANSCRIPT" 2>/dev/null
	if [ "${M_N:-0}" -gt 0 ]; then
		eval "P_IN_$M_CUR=\$(( P_IN_$M_CUR + $1 )) P_OUT_$M_CUR=\$(( P_OUT_$M_CUR + $2 )) P_CACHE_$M_CUR=\$(( P_CACHE_$M_CUR + $3 ))"
	fi
}
# think: one model call of a plausible size
think() { between 300 1800; t_in=$RND; between 60 600; t_out=$RND; between 12000 40000; spend "$t_in" "$t_out" "$RND"; }

# ------------------------------------------------------------------- printing
prompt() { printf '\n%s>%s %s\n\n' "$B$BLU" "$R" "$1"; hook UserPromptSubmit prompt "$1"; }
say() { printf '%s⏺%s %s\n' "$B" "$R" "$1"; }
tool() { hook PreToolUse tool_name "$1"; think; printf '%s⏺%s %s%s%s(%s)\n' "$GRN" "$R" "$B" "$1" "$R" "$2"; nap; }
out() { printf '  %s⎿%s  %s\n' "$D" "$R" "$1"; }
more() { printf '     %s\n' "$1"; sleep 0.1; }
del() { printf '     %s%4d -%s%s\n' "$RED" "$1" "$2" "$R"; }
add() { printf '     %s%4d +%s%s\n' "$GRN" "$1" "$2" "$R"; }
ok() { printf '     test %s ... %sok%s\n' "$1" "$GRN" "$R"; sleep 0.15; }
spin() { printf '%s✻ %s…%s\n' "$MAG" "$1" "$R"; nap; }
# hint LINE...: a note from the demo to the operator, in dim italics
hint() {
	printf '\n%s%s[greenroom demo]%s\n' "$D" "$I" "$R"
	for h in "$@"; do printf '%s%s%s%s\n' "$D" "$I" "$h" "$R"; done
}
done_turn() { hook PostToolUse tool_name "$1"; }
idle() { hook Stop; printf '\n%s>%s ' "$B$BLU" "$R"; }

banner() {
	printf '%s╭──────────────────────────────────────────────────────────╮%s\n' "$D" "$R"
	printf '%s│%s %s✻ demo agent%s · a simulated coding agent (greenroom demo) %s│%s\n' "$D" "$R" "$B$MAG" "$R" "$D" "$R"
	printf '%s│%s   %-55s%s│%s\n' "$D" "$R" "role: $ROLE, no model, no network" "$D" "$R"
	printf '%s╰──────────────────────────────────────────────────────────╯%s\n' "$D" "$R"
	hook SessionStart source startup
}

# -------------------------------------------------------------------- Maestro
STATE_DIR="$PWD/docs/maestro/state"
M_N=0
M_CUR=1

# m_new SLUG TASK: a new orchestration; add phases with m_phase, then m_start
m_new() {
	M_SID="$(date -u +%Y-%m-%d)-$1" M_TASK=$2 M_STATUS=in_progress M_CREATED=$(now) M_N=0 M_CUR=1
}
# m_phase NAME AGENT (agents differ within one orchestration)
m_phase() {
	M_N=$((M_N + 1))
	eval "P_NAME_$M_N=\$1 P_AGENT_$M_N=\$2 P_STATUS_$M_N=pending P_IN_$M_N=0 P_OUT_$M_N=0 P_CACHE_$M_N=0 P_RETRY_$M_N=0 P_ERR_$M_N='' P_START_$M_N='' P_DONE_$M_N=''"
}
m_active_agent() {
	[ -n "$MAESTRO_HOOKS_DIR" ] || return 0
	mkdir -p "$MAESTRO_HOOKS_DIR/$SID" 2>/dev/null &&
		printf '%s\n' "$1" >"$MAESTRO_HOOKS_DIR/$SID/active-agent" 2>/dev/null
}
# m_begin N: phase N starts
m_begin() {
	M_CUR=$1
	eval "P_STATUS_$1=in_progress P_START_$1=\$(now) a=\$P_AGENT_$1"
	m_active_agent "$a"
	m_write
}
# m_finish N: phase N completed
m_finish() { eval "P_STATUS_$1=completed P_DONE_$1=\$(now)"; m_write; }
# m_fail N TYPE MESSAGE: phase N failed with an unresolved error
m_fail() {
	eval "P_STATUS_$1=failed a=\$P_AGENT_$1"
	e="
      - agent: $a
        timestamp: '$(now)'
        type: $2
        message: \"$3\"
        resolution: null
        resolved: false"
	eval "P_ERR_$1=\$e"
	m_write
}
# m_retry N: the error is resolved, the phase runs again
m_retry() {
	eval "P_STATUS_$1=in_progress P_RETRY_$1=\$(( P_RETRY_$1 + 1 ))"
	eval "e=\$P_ERR_$1"
	e=$(printf '%s' "$e" | sed -e 's/resolved: false/resolved: true/' -e 's/resolution: null/resolution: retried after the backoff/')
	eval "P_ERR_$1=\$e"
	m_write
}
m_complete() {
	M_STATUS=completed
	[ -z "$MAESTRO_HOOKS_DIR" ] || rm -f "$MAESTRO_HOOKS_DIR/$SID/active-agent"
	m_write
}

# m_write: the whole state file, written atomically like Maestro's write-state.js
m_write() {
	[ -d "$STATE_DIR" ] || return 0
	tin=0 tout=0 tcache=0 agents='' phases='' i=1
	while [ "$i" -le "$M_N" ]; do
		eval "n=\$P_NAME_$i a=\$P_AGENT_$i s=\$P_STATUS_$i pin=\$P_IN_$i pout=\$P_OUT_$i pc=\$P_CACHE_$i r=\$P_RETRY_$i err=\$P_ERR_$i st=\$P_START_$i dn=\$P_DONE_$i"
		tin=$((tin + pin)) tout=$((tout + pout)) tcache=$((tcache + pc))
		[ "$pin" -gt 0 ] && agents="$agents
    $a: {input: $pin, output: $pout, cached: $pc}"
		[ -n "$st" ] && st="'$st'" || st=null
		[ -n "$dn" ] && dn="'$dn'" || dn=null
		[ -n "$err" ] || err=' []'
		phases="$phases
  - id: $i
    name: \"$n\"
    status: $s
    agents: [$a]
    parallel: false
    started: $st
    completed: $dn
    blocked_by: []
    errors:$err
    retry_count: $r"
		i=$((i + 1))
	done
	[ -n "$agents" ] || agents=' {}'
	tmp="$STATE_DIR/.active-session.md.$$"
	cat >"$tmp" 2>/dev/null <<EOF || return 0
---
session_id: "$M_SID"
task: "$M_TASK"
created: "$M_CREATED"
updated: "$(now)"
status: "$M_STATUS"
workflow_mode: "standard"
current_phase: $M_CUR
total_phases: $M_N
execution_mode: sequential
token_usage:
  total_input: $tin
  total_output: $tout
  total_cached: $tcache
  by_agent:$agents
phases:$phases
---

# $M_TASK Orchestration Log
EOF
	mv -f "$tmp" "$STATE_DIR/active-session.md" 2>/dev/null
}
# m_archive: the finished orchestration moves to state/archive/
m_archive() {
	[ -f "$STATE_DIR/active-session.md" ] || return 0
	mkdir -p "$STATE_DIR/archive" 2>/dev/null &&
		mv -f "$STATE_DIR/active-session.md" "$STATE_DIR/archive/$M_SID.md" 2>/dev/null
	M_N=0
}

# ------------------------------------------------------------- scene pools
# Each scene is one tool call with its output. Roles cycle through theirs.

api_scene() {
	case $(($1 % 8)) in
	0) tool Grep '"offset" in src/api/v2'
	   out "Found 7 matches in 4 files"
	   more "src/api/v2/orders.rs:58      let offset = params.offset.unwrap_or(0);"
	   more "src/api/v2/customers.rs:41   let offset = params.offset.unwrap_or(0);" ;;
	1) tool Read 'src/db/query.rs'
	   out "Read 212 lines" ;;
	2) tool Update 'src/db/query.rs'
	   out "Updated src/db/query.rs with 9 additions and 4 removals"
	   del 88 '    pub fn page(mut self, offset: u64, limit: u64) -> Self {'
	   del 89 '        self.sql.push_str(" OFFSET ? LIMIT ?");'
	   add 88 '    pub fn after(mut self, cursor: Option<&Cursor>, limit: u64) -> Self {'
	   add 89 '        if let Some(c) = cursor {'
	   add 90 '            self.sql.push_str(" WHERE (created_at, id) > (?, ?)");'
	   add 91 '            self.bind(c.created_at).bind(c.id);'
	   add 92 '        }'
	   add 93 '        self.sql.push_str(" ORDER BY created_at, id LIMIT ?");' ;;
	3) tool Bash 'cargo check -p api'
	   out "   Checking api v0.14.2 (/srv/api)"
	   sleep 0.8
	   more "${GRN}    Finished${R} \`dev\` profile [unoptimized + debuginfo] target(s) in 4.12s" ;;
	4) tool Write 'src/api/v2/cursor.rs'
	   out "Wrote 64 lines to src/api/v2/cursor.rs"
	   more "//! Opaque page cursors: base64url of (created_at, id), signed."
	   more "pub struct Cursor { pub created_at: DateTime<Utc>, pub id: Uuid }" ;;
	5) tool Bash 'cargo test -p api pagination'
	   out "running 9 tests"
	   ok pagination::first_page_has_next_cursor
	   ok pagination::cursor_round_trips
	   ok pagination::tampered_cursor_is_rejected
	   ok pagination::last_page_has_no_cursor
	   ok pagination::limit_is_capped_at_200
	   more "test result: ${GRN}ok${R}. 9 passed; 0 failed; finished in 0.41s" ;;
	6) say "The handlers now return \`next_cursor\`; updating the OpenAPI schema to match."
	   tool Update 'openapi/v2.yaml'
	   out "Updated openapi/v2.yaml with 14 additions and 6 removals"
	   del 311 '        - name: offset'
	   add 311 '        - name: cursor'
	   add 312 '          description: next_cursor of the previous page' ;;
	7) tool Bash 'cargo clippy -p api -- -D warnings'
	   out "    Checking api v0.14.2 (/srv/api)"
	   sleep 0.6
	   more "${GRN}    Finished${R} \`dev\` profile [unoptimized + debuginfo] target(s) in 3.87s" ;;
	esac
}

web_scene() {
	case $(($1 % 6)) in
	0) tool Grep 'postcode in src/checkout'
	   out "Found 6 matches in 3 files" ;;
	1) tool Read 'src/checkout/validate.ts'
	   out "Read 118 lines" ;;
	2) tool Update 'src/checkout/validate.ts'
	   out "Updated src/checkout/validate.ts with 3 additions and 1 removal"
	   del 27 "const UK_POSTCODE = /^[A-Z]{1,2}\\d[A-Z\\d]? \\d[A-Z]{2}\$/;"
	   add 27 "// Safari autofill sends a non-breaking space; normalise first."
	   add 28 "const norm = (s: string) => s.replace(/\\s+/gu, ' ').trim();"
	   add 29 "const UK_POSTCODE = /^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}\$/;" ;;
	3) tool Bash 'npx vitest run src/checkout'
	   out " ✓ src/checkout/validate.test.ts (24 tests) 38ms"
	   more " ✓ src/checkout/address.test.ts (11 tests) 21ms"
	   more " Test Files  ${GRN}2 passed${R} (2)" ;;
	4) tool Edit 'src/checkout/validate.test.ts'
	   out "Updated src/checkout/validate.test.ts with 6 additions"
	   add 88 "  it('accepts a postcode with a non-breaking space', () => {"
	   add 89 "    expect(isPostcode('SW1A\\u00a01AA')).toBe(true);" ;;
	5) tool Bash 'npx tsc --noEmit'
	   out "(no output)" ;;
	esac
}

docs_scene() {
	case $(($1 % 5)) in
	0) tool Glob 'src/api/v2/**/*.rs'
	   out "Found 12 files" ;;
	1) tool Read 'src/api/v2/orders.rs'
	   out "Read 164 lines" ;;
	2) tool Write 'docs/api/pagination.md'
	   out "Wrote 184 lines to docs/api/pagination.md"
	   more "# Pagination"
	   more "List endpoints return at most \`limit\` items and a \`next_cursor\`." ;;
	3) tool Bash 'mdbook build docs'
	   out "[INFO] (mdbook::book): Book building has started"
	   more "[INFO] (mdbook::book): Running the html backend" ;;
	4) tool Bash 'lychee docs/api/*.md'
	   out "🔍 41 Total ✅ 41 OK 🚫 0 Errors" ;;
	esac
}

infra_scene() {
	case $(($1 % 5)) in
	0) tool Read 'terraform/staging/versions.tf'
	   out "Read 23 lines" ;;
	1) tool Update 'terraform/staging/versions.tf'
	   out "Updated terraform/staging/versions.tf with 1 addition and 1 removal"
	   del 6 '      version = "~> 4.67"'
	   add 6 '      version = "~> 5.31"' ;;
	2) tool Bash 'terraform -chdir=terraform/staging init -upgrade'
	   out "Initializing provider plugins..."
	   more "- Installing hashicorp/aws v5.31.0..."
	   more "${GRN}Terraform has been successfully initialized!${R}" ;;
	3) tool Update 'terraform/modules/bucket/main.tf'
	   out "Updated terraform/modules/bucket/main.tf with 6 additions and 4 removals"
	   del 12 '  acl    = "private"'
	   add 12 '}'
	   add 13 'resource "aws_s3_bucket_acl" "this" {'
	   add 14 '  bucket = aws_s3_bucket.this.id'
	   add 15 '  acl    = "private"' ;;
	4) tool Bash 'terraform -chdir=terraform/staging plan -no-color'
	   out "aws_s3_bucket.assets: Refreshing state... [id=acme-staging-assets]"
	   more "  ${YEL}~${R} resource \"aws_s3_bucket\" \"assets\" {"
	   more "  ${GRN}+${R} resource \"aws_s3_bucket_acl\" \"assets\" {"
	   more "Plan: ${GRN}3 to add${R}, ${YEL}2 to change${R}, 0 to destroy." ;;
	esac
}

tests_scene() {
	case $(($1 % 4)) in
	0) tool Read 'tests/ws_integration.rs'
	   out "Read 387 lines" ;;
	1) tool Grep 'reconnect in tests/'
	   out "Found 9 matches in 2 files" ;;
	2) tool Update 'tests/ws_integration.rs'
	   out "Updated tests/ws_integration.rs with 2 additions and 1 removal"
	   del 142 '    let msg = client.next().await.unwrap();'
	   add 142 '    let msg = timeout(Duration::from_secs(10), client.next())'
	   add 143 '        .await.expect("server did not answer after restart").unwrap();' ;;
	3) tool Bash 'cargo test --test ws_integration'
	   out "running 23 tests"
	   for t in connect_and_echo heartbeat_keeps_alive reconnect_after_server_restart \
		backpressure_drops_slow_client close_codes_are_forwarded; do ok "ws::$t"; done
	   more "test result: ${GRN}ok${R}. 23 passed; 0 failed; finished in 11.02s" ;;
	esac
}

data_scene() {
	case $(($1 % 6)) in
	0) tool Read 'models/marts/orders_daily.sql'
	   out "Read 58 lines" ;;
	1) tool Update 'models/marts/orders_daily.sql'
	   out "Updated models/marts/orders_daily.sql with 4 additions and 2 removals"
	   del 19 "    date_trunc('day', created_at) as order_date,"
	   add 19 "    date_trunc('day', created_at at time zone 'Europe/London') as order_date,"
	   add 20 "    count(*) filter (where status = 'refunded') as refunds," ;;
	2) tool Bash 'dbt run --select orders_daily+'
	   out "Running with dbt=1.8.4"
	   more "1 of 3 START incremental model marts.orders_daily ....... [RUN]"
	   sleep 0.7
	   more "1 of 3 OK incremental model marts.orders_daily .......... [${GRN}INSERT 1204${R} in 2.3s]"
	   more "2 of 3 OK view model marts.revenue_weekly ............... [${GRN}CREATE VIEW${R} in 0.1s]" ;;
	3) tool Bash 'dbt test --select orders_daily'
	   out "1 of 3 PASS not_null_orders_daily_order_date ........ [${GRN}PASS${R} in 0.2s]"
	   more "2 of 3 PASS unique_orders_daily_order_date .......... [${GRN}PASS${R} in 0.2s]"
	   more "3 of 3 PASS accepted_range_orders_daily_refunds ..... [${GRN}PASS${R} in 0.3s]" ;;
	4) tool Bash "duckdb warehouse.duckdb -c \"from orders_daily order by 1 desc limit 2\""
	   out "┌────────────┬────────┐"
	   more "│ order_date │ orders │"
	   more "├────────────┼────────┤"
	   more "│ 2026-03-14 │   1204 │"
	   more "│ 2026-03-13 │   1187 │"
	   more "└────────────┴────────┘" ;;
	5) tool Write 'models/marts/schema.yml'
	   out "Updated models/marts/schema.yml with 7 additions" ;;
	esac
}

mobile_scene() {
	case $(($1 % 4)) in
	0) tool Grep 'IPHONEOS_DEPLOYMENT_TARGET in ios/'
	   out "Found 4 matches in 1 file" ;;
	1) tool Update 'ios/App.xcodeproj/project.pbxproj'
	   out "Updated ios/App.xcodeproj/project.pbxproj with 4 additions and 4 removals"
	   del 412 '				IPHONEOS_DEPLOYMENT_TARGET = 15.0;'
	   add 412 '				IPHONEOS_DEPLOYMENT_TARGET = 16.0;' ;;
	2) tool Bash 'xcodebuild -scheme App -destination "generic/platform=iOS Simulator" build | xcpretty'
	   out "▸ Compiling AppDelegate.swift"
	   more "▸ Compiling CheckoutView.swift"
	   more "${GRN}** BUILD SUCCEEDED **${R}" ;;
	3) tool Update 'ios/App/CheckoutView.swift'
	   out "Updated ios/App/CheckoutView.swift with 2 additions and 2 removals"
	   del 77 '        .navigationBarTitle("Checkout")'
	   add 77 '        .navigationTitle("Checkout")' ;;
	esac
}

general_scene() {
	case $(($1 % 4)) in
	0) tool Glob '**/*.md'
	   out "Found 7 files" ;;
	1) tool Read 'README.md'
	   out "Read 96 lines" ;;
	2) tool Update 'README.md'
	   out "Updated README.md with 3 additions and 1 removal"
	   del 12 'Run `make` to build.'
	   add 12 'Build with `make`; run the tests with `make test`.' ;;
	3) tool Bash 'make test'
	   out "ok   ./...  0.84s"
	   more "${GRN}PASS${R}" ;;
	esac
}

# scenes POOL FROM COUNT: COUNT scenes of POOL starting at FROM
scenes() {
	s_i=0
	while [ "$s_i" -lt "$3" ]; do
		"$1_scene" $(($2 + s_i))
		s_i=$((s_i + 1))
	done
	done_turn Bash
}

# reply: waits for the operator's line (greenroom's `s` sends one); the
# terminal has echoed it already
reply() {
	IFS= read -r LINE || { sleep 3600; LINE=''; }
	[ -n "$LINE" ] || LINE='go on'
}
# typed: the operator's line was a prompt
typed() { printf '\n'; hook UserPromptSubmit prompt "$LINE"; }

# ---------------------------------------------------------------- the roles

role_api() {
	# Active: a Maestro orchestration whose phases advance and whose token
	# usage grows; when it completes it is archived and the next one starts.
	prompt "/maestro Add cursor-based pagination to the /v2 list endpoints"
	round=0 k=0
	while :; do
		case $((round % 3)) in
		0) m_new v2-cursor-pagination "Add cursor-based pagination to the /v2 list endpoints"
		   m_phase "Design the cursor format" architect
		   m_phase "Implement cursors in the query layer" coder
		   m_phase "Wire pagination into the /v2 handlers" api-designer
		   m_phase "Integration tests and OpenAPI docs" tester ;;
		1) m_new idempotency-keys "Support Idempotency-Key on POST /v2/payments"
		   m_phase "Design key storage and expiry" architect
		   m_phase "Implement the idempotency middleware" coder
		   m_phase "Security review" security-engineer
		   m_phase "Replay and race tests" tester ;;
		2) m_new v2-rate-limit-headers "Return RateLimit-* headers from every /v2 endpoint"
		   m_phase "Agree the header format" architect
		   m_phase "Expose the limiter's budget" coder
		   m_phase "Document the headers" technical-writer
		   m_phase "Contract tests" tester ;;
		esac
		# The same task again later is a new session, as in Maestro.
		[ "$round" -lt 3 ] || M_SID="$M_SID-$((round / 3 + 1))"
		p=1
		while [ "$p" -le "$M_N" ]; do
			eval "pn=\$P_NAME_$p pa=\$P_AGENT_$p"
			m_begin "$p"
			printf '\n%s▶ Maestro phase %d/%d: %s%s %s(%s)%s\n' "$CYN" "$p" "$M_N" "$B" "$pn" "$D" "$pa" "$R"
			j=0
			while [ "$j" -lt 4 ]; do
				api_scene "$k"
				k=$((k + 1)) j=$((j + 1))
				m_write
			done
			m_finish "$p"
			p=$((p + 1))
		done
		m_complete
		say "${GRN}Orchestration complete${R}: $M_N/$M_N phases. Archiving the session state."
		sleep 2
		m_archive
		round=$((round + 1))
		prompt "/maestro next task from the backlog"
	done
}

role_web() {
	# Waiting: asks for permission to run a command and really waits.
	prompt "Checkout: valid UK postcodes are rejected on Safari. Find out why and fix it."
	scenes web 0 3
	k=3 n=0
	while :; do
		case $((n % 3)) in
		0) cmd='npx playwright test checkout --project=webkit' why='Run the checkout end-to-end tests in WebKit' ;;
		1) cmd='git push -u origin fix/safari-postcode' why='Push the fix branch' ;;
		2) cmd='npm run build && npx lighthouse http://localhost:4173/checkout' why='Build and audit the checkout page' ;;
		esac
		printf '%s⏺%s %sBash%s(%s)\n' "$YEL" "$R" "$B" "$R" "$cmd"
		printf '%s╭──────────────────────────────────────────────────────────────╮%s\n' "$YEL" "$R"
		printf '%s│%s %sBash command%s                                                 %s│%s\n' "$YEL" "$R" "$B" "$R" "$YEL" "$R"
		printf '%s│%s   %-59s%s│%s\n' "$YEL" "$R" "$cmd" "$YEL" "$R"
		printf '%s│%s   %s%-59s%s%s│%s\n' "$YEL" "$R" "$D" "$why" "$R" "$YEL" "$R"
		printf '%s│%s Do you want to proceed?                                      %s│%s\n' "$YEL" "$R" "$YEL" "$R"
		printf '%s│%s %s❯ 1. Yes%s                                                     %s│%s\n' "$YEL" "$R" "$B" "$R" "$YEL" "$R"
		printf '%s│%s   2. No, and tell Claude what to do differently              %s│%s\n' "$YEL" "$R" "$YEL" "$R"
		printf '%s╰──────────────────────────────────────────────────────────────╯%s\n' "$YEL" "$R"
		hook Notification message "Claude needs your permission to use Bash" notification_type permission_prompt
		hint "This agent waits for you. In greenroom, select web-2, press s and send" \
			"1 (yes) or 2 (no)."
		reply
		case $LINE in
		2* | n* | N*)
			typed
			say "Understood, I won't run that. Continuing with the unit tests only." ;;
		*)
			hook PostToolUse tool_name Bash
			out "Running 12 tests using 1 worker"
			for t in 'fills the address by postcode' 'accepts a postcode with a non-breaking space' 'shows an inline error for XX1 1XX' 'keeps the basket after a failed payment'; do
				more "${GRN}✓${R} [webkit] checkout › $t"
				sleep 0.4
			done
			more "${GRN}12 passed${R} (8.1s)" ;;
		esac
		scenes web "$k" 4
		k=$((k + 4)) n=$((n + 1))
		idle
		sleep 8
		prompt "Looks good. Next: run the whole suite and push."
		scenes web "$k" 2
		k=$((k + 2))
	done
}

role_docs() {
	# Done: a short Maestro orchestration that completes, then idle.
	prompt "/maestro Document the pagination parameters of the /v2 API"
	m_new v2-pagination-docs "Document the pagination parameters of the /v2 API"
	m_phase "Survey the /v2 handlers" architect
	m_phase "Write docs/api/pagination.md" technical-writer
	m_phase "Check every example against the API" code-reviewer
	m_begin 1; docs_scene 0; docs_scene 1; m_finish 1
	m_begin 2; docs_scene 2; docs_scene 3; m_finish 2
	m_begin 3; docs_scene 4; m_finish 3
	m_complete
	printf '\n'
	say "${GRN}Orchestration complete${R}: 3/3 phases · docs/api/pagination.md (+184 lines) · all 41 links OK."
	while :; do
		idle
		reply
		typed
		say "The orchestration is finished; making a small follow-up edit."
		docs_scene 2
		done_turn Write
	done
}

role_infra() {
	# Errored: rate-limited mid-phase; the Maestro phase fails with an
	# unresolved error. A line from the operator retries it.
	prompt "/maestro Upgrade the staging Terraform to AWS provider 5.x"
	m_new aws-provider-5 "Upgrade the staging Terraform to AWS provider 5.x"
	m_phase "Plan the provider upgrade" architect
	m_phase "Rewrite modules for provider 5.x" devops-engineer
	m_phase "Apply to staging and verify" tester
	m_begin 1; infra_scene 0; m_finish 1
	m_begin 2; infra_scene 1; infra_scene 2
	for attempt in 1 2 3; do
		printf '  %s⎿  API Error: 429 rate_limit_error · retrying in %ds (attempt %d/3)%s\n' "$RED" "$attempt" "$attempt" "$R"
		sleep 0.6
	done
	printf '%s✗ Stopped: rate limit exceeded after 3 retries.%s\n' "$B$RED" "$R"
	m_fail 2 rate_limit "429 rate_limit_error: request tokens exceeded the per-minute rate limit"
	hook StopFailure error rate_limit error_details "429 rate_limit_error after 3 retries"
	hint "The agent stopped on an error. In greenroom, select infra-4, press s and" \
		"send any line to retry."
	reply
	typed
	m_retry 2
	say "Retrying the phase after the rate-limit backoff."
	infra_scene 3; infra_scene 4; m_finish 2
	m_begin 3; infra_scene 4; m_finish 3
	m_complete
	say "${GRN}Orchestration complete${R}: staging plans cleanly on provider 5.31."
	while :; do idle; reply; typed; infra_scene 4; done_turn Bash; done
}

role_tests() {
	# Stuck: reports that it runs a command, then never prints again.
	prompt "/maestro Make the websocket reconnect tests pass on CI"
	m_new ws-reconnect-ci "Make the websocket reconnect tests pass on CI"
	m_phase "Reproduce the reconnect failure" debugger
	m_phase "Run the integration suite under CI settings" tester
	m_phase "Fix the flaky reconnect path" coder
	m_begin 1; tests_scene 0; m_finish 1
	m_begin 2
	hook PreToolUse tool_name Bash
	printf '%s⏺%s %sBash%s(cargo test --test ws_integration -- --test-threads=1)\n' "$GRN" "$R" "$B" "$R"
	out "running 23 tests"
	for t in connect_and_echo heartbeat_keeps_alive backpressure_drops_slow_client; do ok "ws::$t"; done
	printf '     test ws::reconnect_after_server_restart ... '
	hint "This agent hangs now. With no sign of life for stuck_after (8 s in this" \
		"demo, 10 minutes by default) greenroom marks it stuck. Select tests-5," \
		"press s and send a line to nudge it."
	reply
	typed
	say "The reconnect test blocks forever on a socket the server closed; adding a timeout."
	m_finish 2
	m_begin 3; tests_scene 2; tests_scene 3; m_finish 3
	m_complete
	while :; do idle; reply; typed; tests_scene 3; done_turn Bash; done
}

role_data() {
	# Active, then idle for a while, then active again.
	prompt "Backfill orders_daily in London time and add a refunds column"
	k=0
	while :; do
		scenes data "$k" 10
		k=$((k + 10))
		say "Done: orders_daily rebuilt (1,204 rows for the last day), tests pass."
		idle
		sleep 12
		case $((k % 3)) in
		0) prompt "Also add a weekly revenue view for finance" ;;
		1) prompt "Check late-arriving orders are counted on the right day" ;;
		2) prompt "Add tests for the refunds column" ;;
		esac
	done
}

role_mobile() {
	# Idle: did its task and waits at the prompt for the next one.
	prompt "Bump the iOS deployment target to 16.0 and fix the new warnings"
	scenes mobile 0 4
	say "Deployment target is 16.0 and the build has no warnings. Anything else?"
	k=4
	while :; do
		idle
		reply
		typed
		scenes mobile "$k" 3
		k=$((k + 3))
		say "Done."
	done
}

role_ml() {
	# Active: a training run printing every epoch, then a config tweak.
	prompt "Tune the learning-rate schedule of the small ranking model"
	run=1 lr=30
	while :; do
		tool Bash "python train.py --config configs/small.yaml --lr ${lr}e-4"
		out "run $run · 12 epochs · 48,220 training pairs · cuda:0"
		loss=9400 acc=552 e=1
		while [ "$e" -le 12 ]; do
			rand 240; loss=$((loss * 86 / 100 + RND))
			rand 30; acc=$((acc + 28 - e + RND / 3))
			[ "$acc" -lt 941 ] || acc=941
			printf '     epoch %2d/12  loss %s0.%04d%s  val_loss 0.%04d  ndcg@10 %s0.%03d%s\n' \
				"$e" "$B" "$loss" "$R" $((loss + 310)) "$CYN" "$acc" "$R"
			[ $((e % 4)) -eq 0 ] && { think; done_turn Bash; }
			sleep 1.2
			e=$((e + 1))
		done
		more "saved checkpoints/run-$run/best.pt"
		tool Update 'configs/small.yaml'
		out "Updated configs/small.yaml with 2 additions and 2 removals"
		del 9 "  lr: ${lr}e-4"
		lr=$((lr * 2 / 3 + 1))
		add 9 "  lr: ${lr}e-4"
		add 10 "  schedule: cosine"
		run=$((run + 1))
		done_turn Update
	done
}

role_general() {
	# A fresh agent from the dashboard's spawn form: waits for a first prompt.
	say "Ready. What should I work on? (send a line with s)"
	k=0
	while :; do
		idle
		reply
		typed
		scenes general "$k" 4
		k=$((k + 4))
		say "Done."
	done
}

banner
case $ROLE in
api | web | docs | infra | tests | data | mobile | ml | general) "role_$ROLE" ;;
*) role_general ;;
esac
