import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateJwtKey, parseJwtKeys } from "@authsvc/adapters";
import { afterAll, describe, expect, it } from "vitest";
import { apiKeyWarnings } from "../config/api-key-warnings.js";
import { configuredJwtSecret, loadDatabaseOnly, loadSigningOnly } from "./partial-load.js";

const dir = mkdtempSync(join(tmpdir(), "authsvc-partial-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DB = "postgres://app:pw@db.internal:5432/app";
const SECRET = "a-secret-of-at-least-thirty-two-characters";

describe("loading only what a command needs", () => {
  it("the database alone: no site URL, external URL or JWT secret asked for", () => {
    const loaded = loadDatabaseOnly({ DATABASE_URL: DB, AUTHSVC_DB_NAMESPACE: "app_auth" });
    expect(loaded).toMatchObject({
      ok: true,
      config: { embedded: false, db: { url: DB, namespace: "app_auth" } },
    });
  });

  it("the database alone still refuses its own malformed variables, never echoing a password", () => {
    const loaded = loadDatabaseOnly({
      DATABASE_URL: "mysql://u:hunter2@h/db",
      AUTHSVC_DB_MAX_POOL_SIZE: "many",
    });
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.problems;
    expect(problems).toHaveLength(2);
    expect(problems.join("\n")).not.toContain("hunter2");
  });

  it("a refusal carries the hint about a misspelt name, which is why the required one is missing", () => {
    expect(loadSigningOnly({ DATABASE_URL: DB, AUTHSVC_JWT_SECERT: SECRET }, () => "unused")).toEqual({
      ok: false,
      problems: [expect.stringContaining("AUTHSVC_JWT_SECRET: required")],
      warnings: [
        "AUTHSVC_JWT_SECERT is not a variable of this server and is ignored; did you mean AUTHSVC_JWT_SECRET?",
      ],
    });
    const database = loadDatabaseOnly({
      DATABASE_URL: DB,
      AUTHSVC_DB_MAX_POOL_SIZE: "many",
      GOTRUE_DB_NAMESPACE: "x",
    });
    expect(database.ok ? [] : database.warnings).toEqual([
      "GOTRUE_DB_NAMESPACE is not read (GoTrue's name): set AUTHSVC_DB_NAMESPACE instead",
    ]);
  });

  it("signing: the secret is required outside embedded mode, and JWT_KEYS is checked", () => {
    expect(loadSigningOnly({ DATABASE_URL: DB }, () => "unused")).toEqual({
      ok: false,
      problems: [expect.stringContaining("AUTHSVC_JWT_SECRET: required")],
      warnings: [],
    });
    expect(
      loadSigningOnly({ DATABASE_URL: DB, AUTHSVC_JWT_SECRET: SECRET, AUTHSVC_JWT_KEYS: "[]" }, () => "").ok,
    ).toBe(false);
    expect(loadSigningOnly({ DATABASE_URL: DB, AUTHSVC_JWT_SECRET: SECRET }, () => "")).toMatchObject({
      ok: true,
      config: { jwt: { secret: SECRET, keys: undefined } },
    });
  });

  it("signing in embedded mode uses the development secret of the data folder", () => {
    const loaded = loadSigningOnly(
      { AUTHSVC_DATA_DIR: dir },
      (dataDir) => `dev-secret-of-${dataDir}-0123456789`,
    );
    expect(loaded).toMatchObject({
      ok: true,
      config: { embedded: true, jwt: { secret: `dev-secret-of-${dir}-0123456789` } },
    });
  });

  it("the secret for `keys`: the variable, else the kept development secret in embedded mode only", () => {
    expect(configuredJwtSecret({ AUTHSVC_JWT_SECRET: SECRET, DATABASE_URL: DB })).toBe(SECRET);
    expect(configuredJwtSecret({ DATABASE_URL: DB, AUTHSVC_DATA_DIR: dir })).toBeUndefined();
    expect(configuredJwtSecret({ AUTHSVC_DATA_DIR: dir })).toBeUndefined();
    writeFileSync(join(dir, "jwt-secret"), `${SECRET}\n`);
    expect(configuredJwtSecret({ AUTHSVC_DATA_DIR: dir })).toBe(SECRET);
    expect(configuredJwtSecret({ DATABASE_URL: DB, AUTHSVC_DATA_DIR: dir })).toBeUndefined();
  });
});

describe("the start-up warning about API keys", () => {
  const ring = (keys: object[]) => {
    const parsed = parseJwtKeys(JSON.stringify(keys));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    return parsed.ring;
  };
  const warningsFor = (keys: object[] | undefined) =>
    apiKeyWarnings({ jwt: { keys: keys && ring(keys) } as Parameters<typeof apiKeyWarnings>[0]["jwt"] });

  it("says nothing without JWT_KEYS, or when the set holds an HS256 key", () => {
    expect(warningsFor(undefined)).toEqual([]);
    expect(warningsFor([generateJwtKey("ES256"), generateJwtKey("HS256", { signs: false })])).toEqual([]);
  });

  it("warns when no HS256 key is left, naming the way out", () => {
    const [warning, ...more] = warningsFor([
      generateJwtKey("ES256"),
      generateJwtKey("RS256", { signs: false }),
    ]);
    expect(more).toEqual([]);
    expect(warning).toMatch(
      /^AUTHSVC_JWT_KEYS holds no HS256 key: .*403 bad_jwt.*authsvc api-keys.*authsvc keys/,
    );
  });
});
