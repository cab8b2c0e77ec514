import type { ImportSummary } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { progressLine, summaryText } from "./import-gotrue-report.js";

const counts = (read: number, inserted: number, unchanged: number, rejected = 0) => ({
  read,
  inserted,
  updated: 0,
  unchanged,
  rejected,
});

describe("authsvc import-gotrue output", () => {
  it("sums up each table, what was left out by rule and what the target refused", () => {
    const summary: ImportSummary = {
      steps: [
        { name: "users", counts: counts(100_000, 99_999, 0, 1), seconds: 50 },
        {
          name: "mfa_factors",
          counts: counts(3, 3, 0),
          seconds: 0.04,
          leftOut: { count: 2, why: "WebAuthn factors (authsvc offers none)" },
        },
      ],
      rejections: [{ table: "users", id: "0b0e…", reason: "violates users_email_partial_key" }],
      rejectedTotal: 1,
      seconds: 50.04,
    };
    expect(summaryText(summary)).toBe(
      [
        "import-gotrue: 100,003 rows read in 50.0 s (1,998 rows/s)",
        "  table           read  inserted  updated  unchanged  rejected  seconds",
        "  users        100,000    99,999        0          0         1     50.0",
        "  mfa_factors        3         3        0          0         0      0.0",
        "  left out: 2 WebAuthn factors (authsvc offers none)",
        "  refused by the target: 1 row",
        "    users 0b0e…: violates users_email_partial_key",
        "",
      ].join("\n"),
    );
  });

  it("rewrites one line in place while a table is copied, and ends it when the table is done", () => {
    let written = "";
    const stream = { write: (text: string) => (written += text) } as unknown as NodeJS.WriteStream;
    const show = progressLine(stream);
    show({ step: "users", done: 0, total: 4 });
    show({ step: "users", done: 1, total: 4 }); // within 200 ms of the last: not drawn
    show({ step: "users", done: 4, total: 4 });
    expect(written).toBe(
      `\r\x1b[2Kusers              [${"-".repeat(24)}] 0% 0/4` +
        `\r\x1b[2Kusers              [${"#".repeat(24)}] 100% 4/4\n`,
    );
  });
});
