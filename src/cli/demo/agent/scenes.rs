//! Each role's pool of scenes: one tool call and what it printed. Roles
//! play their pool in turn, from the start again after the last.
//!
//! Text may carry colour marks (`{g}` green, `{R}` reset, ...), which
//! `paint` turns into escape sequences.

use super::Step::{self, Add, Del, More, Out, Pass, Pause, Say, Tool};

pub(super) type Scene = &'static [Step];

pub(super) const API: &[Scene] = &[
    &[
        Tool("Grep", r#""offset" in src/api/v2"#),
        Out("Found 7 matches in 4 files"),
        More("src/api/v2/orders.rs:58      let offset = params.offset.unwrap_or(0);"),
        More("src/api/v2/customers.rs:41   let offset = params.offset.unwrap_or(0);"),
    ],
    &[Tool("Read", "src/db/query.rs"), Out("Read 212 lines")],
    &[
        Tool("Update", "src/db/query.rs"),
        Out("Updated src/db/query.rs with 9 additions and 4 removals"),
        Del(
            88,
            "    pub fn page(mut self, offset: u64, limit: u64) -> Self {",
        ),
        Del(89, r#"        self.sql.push_str(" OFFSET ? LIMIT ?");"#),
        Add(
            88,
            "    pub fn after(mut self, cursor: Option<&Cursor>, limit: u64) -> Self {",
        ),
        Add(89, "        if let Some(c) = cursor {"),
        Add(
            90,
            r#"            self.sql.push_str(" WHERE (created_at, id) > (?, ?)");"#,
        ),
        Add(91, "            self.bind(c.created_at).bind(c.id);"),
        Add(92, "        }"),
        Add(
            93,
            r#"        self.sql.push_str(" ORDER BY created_at, id LIMIT ?");"#,
        ),
    ],
    &[
        Tool("Bash", "cargo check -p api"),
        Out("   Checking api v0.14.2 (/srv/api)"),
        Pause(800),
        More("{g}    Finished{R} `dev` profile [unoptimized + debuginfo] target(s) in 4.12s"),
    ],
    &[
        Tool("Write", "src/api/v2/cursor.rs"),
        Out("Wrote 64 lines to src/api/v2/cursor.rs"),
        More("//! Opaque page cursors: base64url of (created_at, id), signed."),
        More("pub struct Cursor { pub created_at: DateTime<Utc>, pub id: Uuid }"),
    ],
    &[
        Tool("Bash", "cargo test -p api pagination"),
        Out("running 9 tests"),
        Pass("pagination::first_page_has_next_cursor"),
        Pass("pagination::cursor_round_trips"),
        Pass("pagination::tampered_cursor_is_rejected"),
        Pass("pagination::last_page_has_no_cursor"),
        Pass("pagination::limit_is_capped_at_200"),
        More("test result: {g}ok{R}. 9 passed; 0 failed; finished in 0.41s"),
    ],
    &[
        Say("The handlers now return `next_cursor`; updating the OpenAPI schema to match."),
        Tool("Update", "openapi/v2.yaml"),
        Out("Updated openapi/v2.yaml with 14 additions and 6 removals"),
        Del(311, "        - name: offset"),
        Add(311, "        - name: cursor"),
        Add(
            312,
            "          description: next_cursor of the previous page",
        ),
    ],
    &[
        Tool("Bash", "cargo clippy -p api -- -D warnings"),
        Out("    Checking api v0.14.2 (/srv/api)"),
        Pause(600),
        More("{g}    Finished{R} `dev` profile [unoptimized + debuginfo] target(s) in 3.87s"),
    ],
];

pub(super) const WEB: &[Scene] = &[
    &[
        Tool("Grep", "postcode in src/checkout"),
        Out("Found 6 matches in 3 files"),
    ],
    &[
        Tool("Read", "src/checkout/validate.ts"),
        Out("Read 118 lines"),
    ],
    &[
        Tool("Update", "src/checkout/validate.ts"),
        Out("Updated src/checkout/validate.ts with 3 additions and 1 removal"),
        Del(
            27,
            r"const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/;",
        ),
        Add(
            27,
            "// Safari autofill sends a non-breaking space; normalise first.",
        ),
        Add(
            28,
            r"const norm = (s: string) => s.replace(/\s+/gu, ' ').trim();",
        ),
        Add(
            29,
            r"const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/;",
        ),
    ],
    &[
        Tool("Bash", "npx vitest run src/checkout"),
        Out(" ✓ src/checkout/validate.test.ts (24 tests) 38ms"),
        More(" ✓ src/checkout/address.test.ts (11 tests) 21ms"),
        More(" Test Files  {g}2 passed{R} (2)"),
    ],
    &[
        Tool("Edit", "src/checkout/validate.test.ts"),
        Out("Updated src/checkout/validate.test.ts with 6 additions"),
        Add(
            88,
            "  it('accepts a postcode with a non-breaking space', () => {",
        ),
        Add(89, r"    expect(isPostcode('SW1A\u00a01AA')).toBe(true);"),
    ],
    &[Tool("Bash", "npx tsc --noEmit"), Out("(no output)")],
];

pub(super) const DOCS: &[Scene] = &[
    &[Tool("Glob", "src/api/v2/**/*.rs"), Out("Found 12 files")],
    &[Tool("Read", "src/api/v2/orders.rs"), Out("Read 164 lines")],
    &[
        Tool("Write", "docs/api/pagination.md"),
        Out("Wrote 184 lines to docs/api/pagination.md"),
        More("# Pagination"),
        More("List endpoints return at most `limit` items and a `next_cursor`."),
    ],
    &[
        Tool("Bash", "mdbook build docs"),
        Out("[INFO] (mdbook::book): Book building has started"),
        More("[INFO] (mdbook::book): Running the html backend"),
    ],
    &[
        Tool("Bash", "lychee docs/api/*.md"),
        Out("🔍 41 Total ✅ 41 OK 🚫 0 Errors"),
    ],
];

pub(super) const INFRA: &[Scene] = &[
    &[
        Tool("Read", "terraform/staging/versions.tf"),
        Out("Read 23 lines"),
    ],
    &[
        Tool("Update", "terraform/staging/versions.tf"),
        Out("Updated terraform/staging/versions.tf with 1 addition and 1 removal"),
        Del(6, r#"      version = "~> 4.67""#),
        Add(6, r#"      version = "~> 5.31""#),
    ],
    &[
        Tool("Bash", "terraform -chdir=terraform/staging init -upgrade"),
        Out("Initializing provider plugins..."),
        More("- Installing hashicorp/aws v5.31.0..."),
        More("{g}Terraform has been successfully initialized!{R}"),
    ],
    &[
        Tool("Update", "terraform/modules/bucket/main.tf"),
        Out("Updated terraform/modules/bucket/main.tf with 6 additions and 4 removals"),
        Del(12, r#"  acl    = "private""#),
        Add(12, "}"),
        Add(13, r#"resource "aws_s3_bucket_acl" "this" {"#),
        Add(14, "  bucket = aws_s3_bucket.this.id"),
        Add(15, r#"  acl    = "private""#),
    ],
    &[
        Tool("Bash", "terraform -chdir=terraform/staging plan -no-color"),
        Out("aws_s3_bucket.assets: Refreshing state... [id=acme-staging-assets]"),
        More(r#"  {y}~{R} resource "aws_s3_bucket" "assets" {"#),
        More(r#"  {g}+{R} resource "aws_s3_bucket_acl" "assets" {"#),
        More("Plan: {g}3 to add{R}, {y}2 to change{R}, 0 to destroy."),
    ],
];

pub(super) const TESTS: &[Scene] = &[
    &[
        Tool("Read", "tests/ws_integration.rs"),
        Out("Read 387 lines"),
    ],
    &[
        Tool("Grep", "reconnect in tests/"),
        Out("Found 9 matches in 2 files"),
    ],
    &[
        Tool("Update", "tests/ws_integration.rs"),
        Out("Updated tests/ws_integration.rs with 2 additions and 1 removal"),
        Del(142, "    let msg = client.next().await.unwrap();"),
        Add(
            142,
            "    let msg = timeout(Duration::from_secs(10), client.next())",
        ),
        Add(
            143,
            r#"        .await.expect("server did not answer after restart").unwrap();"#,
        ),
    ],
    &[
        Tool("Bash", "cargo test --test ws_integration"),
        Out("running 23 tests"),
        Pass("ws::connect_and_echo"),
        Pass("ws::heartbeat_keeps_alive"),
        Pass("ws::reconnect_after_server_restart"),
        Pass("ws::backpressure_drops_slow_client"),
        Pass("ws::close_codes_are_forwarded"),
        More("test result: {g}ok{R}. 23 passed; 0 failed; finished in 11.02s"),
    ],
];

pub(super) const DATA: &[Scene] = &[
    &[
        Tool("Read", "models/marts/orders_daily.sql"),
        Out("Read 58 lines"),
    ],
    &[
        Tool("Update", "models/marts/orders_daily.sql"),
        Out("Updated models/marts/orders_daily.sql with 4 additions and 2 removals"),
        Del(19, "    date_trunc('day', created_at) as order_date,"),
        Add(
            19,
            "    date_trunc('day', created_at at time zone 'Europe/London') as order_date,",
        ),
        Add(
            20,
            "    count(*) filter (where status = 'refunded') as refunds,",
        ),
    ],
    &[
        Tool("Bash", "dbt run --select orders_daily+"),
        Out("Running with dbt=1.8.4"),
        More("1 of 3 START incremental model marts.orders_daily ....... [RUN]"),
        Pause(700),
        More(
            "1 of 3 OK incremental model marts.orders_daily .......... [{g}INSERT 1204{R} in 2.3s]",
        ),
        More(
            "2 of 3 OK view model marts.revenue_weekly ............... [{g}CREATE VIEW{R} in 0.1s]",
        ),
    ],
    &[
        Tool("Bash", "dbt test --select orders_daily"),
        Out("1 of 3 PASS not_null_orders_daily_order_date ........ [{g}PASS{R} in 0.2s]"),
        More("2 of 3 PASS unique_orders_daily_order_date .......... [{g}PASS{R} in 0.2s]"),
        More("3 of 3 PASS accepted_range_orders_daily_refunds ..... [{g}PASS{R} in 0.3s]"),
    ],
    &[
        Tool(
            "Bash",
            r#"duckdb warehouse.duckdb -c "from orders_daily order by 1 desc limit 2""#,
        ),
        Out("┌────────────┬────────┐"),
        More("│ order_date │ orders │"),
        More("├────────────┼────────┤"),
        More("│ 2026-03-14 │   1204 │"),
        More("│ 2026-03-13 │   1187 │"),
        More("└────────────┴────────┘"),
    ],
    &[
        Tool("Write", "models/marts/schema.yml"),
        Out("Updated models/marts/schema.yml with 7 additions"),
    ],
];

pub(super) const MOBILE: &[Scene] = &[
    &[
        Tool("Grep", "IPHONEOS_DEPLOYMENT_TARGET in ios/"),
        Out("Found 4 matches in 1 file"),
    ],
    &[
        Tool("Update", "ios/App.xcodeproj/project.pbxproj"),
        Out("Updated ios/App.xcodeproj/project.pbxproj with 4 additions and 4 removals"),
        Del(412, "\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 15.0;"),
        Add(412, "\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 16.0;"),
    ],
    &[
        Tool(
            "Bash",
            r#"xcodebuild -scheme App -destination "generic/platform=iOS Simulator" build | xcpretty"#,
        ),
        Out("▸ Compiling AppDelegate.swift"),
        More("▸ Compiling CheckoutView.swift"),
        More("{g}** BUILD SUCCEEDED **{R}"),
    ],
    &[
        Tool("Update", "ios/App/CheckoutView.swift"),
        Out("Updated ios/App/CheckoutView.swift with 2 additions and 2 removals"),
        Del(77, r#"        .navigationBarTitle("Checkout")"#),
        Add(77, r#"        .navigationTitle("Checkout")"#),
    ],
];

pub(super) const GENERAL: &[Scene] = &[
    &[Tool("Glob", "**/*.md"), Out("Found 7 files")],
    &[Tool("Read", "README.md"), Out("Read 96 lines")],
    &[
        Tool("Update", "README.md"),
        Out("Updated README.md with 3 additions and 1 removal"),
        Del(12, "Run `make` to build."),
        Add(12, "Build with `make`; run the tests with `make test`."),
    ],
    &[
        Tool("Bash", "make test"),
        Out("ok   ./...  0.84s"),
        More("{g}PASS{R}"),
    ],
];
