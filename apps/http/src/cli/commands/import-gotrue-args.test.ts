import { describe, expect, it } from "vitest";
import { parseImportArgs } from "./import-gotrue-args.js";

const FROM = "postgres://gotrue@db.internal:5432/postgres";

describe("authsvc import-gotrue arguments", () => {
  it("needs only --from; the schema is auth, no audit, batches of 1000", () => {
    expect(parseImportArgs(["--from", FROM])).toEqual({
      ok: true,
      value: { from: FROM, schema: "auth", withAudit: false, batchSize: 1000 },
    });
  });

  it("takes every option, spaced or with =", () => {
    expect(
      parseImportArgs([`--from=${FROM}`, "--schema=gotrue", "--with-audit", "--batch-size", "250"]),
    ).toEqual({
      ok: true,
      value: { from: FROM, schema: "gotrue", withAudit: true, batchSize: 250 },
    });
  });

  it.each([
    [[], "--from is required"],
    [["--from"], "--from needs a database URL"],
    [["--from", "mysql://x"], "--from: expected a postgres:// URL"],
    [["--from", FROM, "--schema", "Auth; drop"], "--schema: expected a schema name like auth"],
    [["--from", FROM, "--batch-size", "0"], "--batch-size: expected a whole number from 1 to 5000"],
    [["--from", FROM, "--batch-size", "1e9"], "--batch-size: expected a whole number from 1 to 5000"],
    [["--from", FROM, "--with-audit=yes"], "--with-audit takes no value"],
    [["--from", FROM, "--dry-run"], "unknown option --dry-run"],
    [["--from", FROM, "extra"], "unknown option extra"],
  ])("refuses %j: %s", (args, error) => {
    expect(parseImportArgs(args)).toEqual({ ok: false, error });
  });
});
