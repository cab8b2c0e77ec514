import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshNamespace, freshNamespace } from "../testing/database.js";
import { hookFunctionProblem } from "./hooks-store.js";

// The start check of pg-functions hook targets: each reason a hook call would fail, told before the
// first call does.

let db: FreshNamespace;
const role = `hook_checker_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
beforeAll(async () => {
  db = await freshNamespace();
  const s = db.namespace;
  await db.sql.unsafe(`
    create schema ${s};
    create function ${s}.callable(event jsonb) returns jsonb language sql as $$ select event $$;
    create function ${s}.answers_text(event jsonb) returns text language sql as $$ select 'x' $$;
    create function ${s}.takes_text(event text) returns jsonb language sql as $$ select '{}'::jsonb $$;
    create function ${s}.locked(event jsonb) returns jsonb language sql as $$ select event $$;
    revoke execute on function ${s}.locked(jsonb) from public;
    create role ${role} nologin;
    grant usage on schema ${s} to ${role};
  `);
});
afterAll(async () => {
  await db?.sql.unsafe(`drop owned by ${role}; drop role if exists ${role}`);
  await db?.drop();
});

describe("hookFunctionProblem", () => {
  it("finds nothing wrong with a function of one jsonb argument that returns jsonb", async () => {
    expect(await hookFunctionProblem(db.sql, db.namespace, "callable")).toBeNull();
  });

  it("says the function is missing, listing the functions of that name with other arguments", async () => {
    const s = db.namespace;
    expect(await hookFunctionProblem(db.sql, s, "nothing_here")).toBe(
      `function ${s}.nothing_here(jsonb) does not exist`,
    );
    expect(await hookFunctionProblem(db.sql, s, "takes_text")).toBe(
      `function ${s}.takes_text(jsonb) does not exist (found: ${s}.takes_text(text))`,
    );
    expect(await hookFunctionProblem(db.sql, "no_such_schema", "callable")).toBe(
      "function no_such_schema.callable(jsonb) does not exist",
    );
  });

  it("refuses a function that does not answer JSON", async () => {
    expect(await hookFunctionProblem(db.sql, db.namespace, "answers_text")).toBe(
      `function ${db.namespace}.answers_text(jsonb) returns text, not jsonb`,
    );
  });

  it("tells when the connecting role may not execute the function", async () => {
    const s = db.namespace;
    const seen = await db.sql.begin(async (tx) => {
      await tx.unsafe(`set local role ${role}`);
      return [await hookFunctionProblem(tx, s, "locked"), await hookFunctionProblem(tx, s, "callable")];
    });
    expect(seen).toEqual([`the database role may not execute ${s}.locked(jsonb)`, null]);
  });
});
