import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Asymmetric signing keys end to end: key sets made by `authsvc keys`, auth-js `getClaims()` verifying
 * access tokens locally against `/.well-known/jwks.json`, and a rotation across server restarts on
 * one database — previous key published and verifying, then removed.
 */
let ns: FreshNamespace;
let server: ServerProcess | undefined;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-keys-"));

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

type Jwk = Record<string, unknown>;

/** `authsvc keys <args>` run as an operator would, `current` as AUTHSVC_JWT_KEYS. */
async function keys(args: string[], current?: string): Promise<string> {
  const env: Record<string, string> = current === undefined ? {} : { AUTHSVC_JWT_KEYS: current };
  const run = await runServer(env, { args: ["keys", ...args], cwd });
  // A new set, made with no JWT secret in the environment, says the API keys must be re-made.
  const newSet = !args.some((arg) => ["--add", "--promote", "--remove"].includes(arg));
  if (newSet)
    expect(run.stderr).toMatch(/^authsvc keys: no AUTHSVC_JWT_SECRET found: .*authsvc api-keys.*\n$/);
  else expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.stdout.trim();
}
const kidsOf = (set: string) => (JSON.parse(set) as Jwk[]).map((key) => key.kid as string);

/** The legacy secret as a verify-only key: tokens signed with JWT_SECRET (API keys) keep working. */
const secretKey = {
  kty: "oct",
  kid: "legacy-secret",
  alg: "HS256",
  key_ops: ["verify"],
  k: Buffer.from(TEST_JWT_SECRET).toString("base64url"),
};
const withSecret = (set: string) => JSON.stringify([...(JSON.parse(set) as Jwk[]), secretKey]);

/** (Re)starts the server with `jwtKeys` as AUTHSVC_JWT_KEYS, or with JWT_SECRET alone. */
async function restart(jwtKeys?: string): Promise<ServerProcess> {
  await server?.stop();
  const keysEnv: Record<string, string> = jwtKeys === undefined ? {} : { AUTHSVC_JWT_KEYS: jwtKeys };
  server = await startServer(productionServerEnv(ns, { AUTHSVC_MAILER_AUTOCONFIRM: "true", ...keysEnv }), {
    cwd,
  });
  return server;
}

/** A client whose requests are recorded, to tell local verification from a call to `/user`. */
function recordingClient(url: string) {
  const paths: string[] = [];
  const client = new GoTrueClient({
    url,
    autoRefreshToken: false,
    persistSession: false,
    // Its own JWKS cache: auth-js shares one per storage key.
    storageKey: `keys-test-${Math.random()}`,
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    },
  });
  return { client, paths };
}

let userCounter = 0;
async function signUp(url: string) {
  const { client } = recordingClient(url);
  const email = `keys-${Date.now()}-${++userCounter}@example.com`;
  const { data, error } = await client.signUp({ email, password: "secret-pw-1" });
  expect(error).toBeNull();
  if (!data.session) throw new Error("no session (autoconfirm expected)");
  return { email, session: data.session };
}

describe("signing keys", () => {
  it("refuses to start with an invalid key set, naming the problem", async () => {
    const publicOnly = JSON.parse(await keys([])) as Jwk[];
    const { d: _d, ...pub } = publicOnly[0] as Jwk;
    const run = await runServer(productionServerEnv(ns, { AUTHSVC_JWT_KEYS: JSON.stringify([pub]) }), {
      cwd,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `AUTHSVC_JWT_KEYS: key 1 (kid "${pub.kid}"): is a public key (no "d"), so it cannot sign`,
    );
  });

  it("without JWT_KEYS: HS256 with the secret, an empty JWKS, and getClaims asks the server", async () => {
    const { url } = await restart();
    const jwks = await fetch(`${url}/.well-known/jwks.json`);
    expect(await jwks.json()).toEqual({ keys: [] });
    const { session } = await signUp(url);
    expect(decodeProtectedHeader(session.access_token)).toEqual({ alg: "HS256", typ: "JWT" });
    const verifier = recordingClient(url);
    const claims = await verifier.client.getClaims(session.access_token);
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.sub).toBe(session.user.id);
    // A symmetric token cannot be checked by the client: auth-js asks the server (GET /user).
    expect(verifier.paths).toEqual(["/user"]);
  });

  it("rotates: getClaims verifies locally; the previous key verifies until it is removed", async () => {
    // 1. One ES256 key, as `authsvc keys` makes it.
    const first = await keys([]);
    const [firstKid] = kidsOf(first);
    let url = (await restart(first)).url;
    const jwks = await fetch(`${url}/auth/v1/.well-known/jwks.json`);
    expect(jwks.headers.get("cache-control")).toBe("public, max-age=600");
    const published = (await jwks.json()) as { keys: Jwk[] };
    expect(published.keys.map((key) => [key.kid, key.alg, key.kty, "d" in key])).toEqual([
      [firstKid, "ES256", "EC", false],
    ]);

    const before = await signUp(url);
    expect(decodeProtectedHeader(before.session.access_token)).toEqual({
      alg: "ES256",
      kid: firstKid,
      typ: "JWT",
    });
    const verifier = recordingClient(url);
    const claims = await verifier.client.getClaims(before.session.access_token);
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.sub).toBe(before.session.user.id);
    expect(claims.data?.claims.email).toBe(before.email);
    // Verified against the JWKS, not by asking the server for the user.
    expect(verifier.paths).toEqual(["/.well-known/jwks.json"]);
    // A second verification uses the cached key set: no request at all.
    expect((await verifier.client.getClaims(before.session.access_token)).error).toBeNull();
    expect(verifier.paths).toHaveLength(1);

    // 2. A standby RS256 key is published, then promoted: the ES256 key only verifies.
    const standby = await keys(["--add", "--standby", "--alg", "RS256"], first);
    const secondKid = kidsOf(standby)[1] as string;
    const rotated = await keys(["--promote", secondKid], standby);
    url = (await restart(withSecret(rotated))).url;
    const both = (await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: Jwk[] };
    // The shared secret is never published.
    expect(both.keys.map((key) => key.kid)).toEqual([firstKid, secondKid]);

    const { data: user } = await recordingClient(url).client.getUser(before.session.access_token);
    expect(user.user?.id).toBe(before.session.user.id);
    const after = await signUp(url);
    expect(decodeProtectedHeader(after.session.access_token)).toEqual({
      alg: "RS256",
      kid: secondKid,
      typ: "JWT",
    });
    const fresh = recordingClient(url);
    for (const token of [before.session.access_token, after.session.access_token]) {
      const result = await fresh.client.getClaims(token);
      expect(result.error).toBeNull();
    }
    expect(fresh.paths).toEqual(["/.well-known/jwks.json"]);
    // A refresh of the earlier session is signed with the new key.
    const refreshed = await recordingClient(url).client.refreshSession({
      refresh_token: before.session.refresh_token,
    });
    expect(refreshed.error).toBeNull();
    expect(decodeProtectedHeader(refreshed.data.session?.access_token ?? "").kid).toBe(secondKid);
    // The legacy secret is in the set: API keys signed with JWT_SECRET still reach the admin API.
    const admin = new GoTrueAdminApi({
      url,
      headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
    });
    expect((await admin.listUsers()).error).toBeNull();

    // 3. The ES256 key and the legacy secret are removed: their tokens answer 403 bad_jwt.
    const final = await keys(["--remove", firstKid as string], rotated);
    url = (await restart(final)).url;
    const denied = await fetch(`${url}/user`, {
      headers: { authorization: `Bearer ${before.session.access_token}` },
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: 403, error_code: "bad_jwt" });
    const stillValid = await recordingClient(url).client.getUser(after.session.access_token);
    expect(stillValid.data.user?.id).toBe(after.session.user.id);
    const adminNow = new GoTrueAdminApi({
      url,
      headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
    });
    const refused = await adminNow.listUsers();
    expect(refused.error).toMatchObject({ status: 403, code: "bad_jwt" });
    // auth-js no longer finds the removed key in the set.
    const last = recordingClient(url);
    expect((await last.client.getClaims(before.session.access_token)).error).not.toBeNull();
    expect(last.paths[0]).toBe("/.well-known/jwks.json");
  });
});
