import { type FreshNamespace, freshNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Composition } from "./composition/compose.js";
import { COMPOSED_BASE as BASE, composedApp } from "./testing/composed-app.js";
import { ENDPOINTS as SERVER_ENDPOINTS } from "./testing/fuzz/endpoints.js";
import { type FieldCase, fieldCaseArbitrary } from "./testing/fuzz/fields.js";
import {
  endpointsOf,
  type FuzzKeys,
  fuzzRuns,
  type RequestSpec,
  requestArbitrary,
  toRequest,
  USER_TOKEN_PLACEHOLDER,
  withUserToken,
} from "./testing/fuzz/requests.js";
import {
  registerFuzzTargets,
  samlFuzzEnv,
  type TargetedContext,
  targetedRequestArbitrary,
} from "./testing/fuzz/targeted.js";
import { roleKey } from "./testing/server-env.js";

/**
 * Every endpoint of the composed app (real Postgres adapters, so database-level faults show) under
 * malformed bodies, headers and query strings: no request may be answered 5xx or throw. Bounded for
 * CI; `npm run fuzz` runs 100,000 (FUZZ_RUNS) here and against the server process.
 */
let ns: FreshNamespace;
let composition: Composition;
let keys: FuzzKeys;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let targets: TargetedContext;

beforeAll(async () => {
  ns = await freshNamespace();
  // A working mail server: a server without one answers 500 email_send_failed, as the reference does.
  sink = await startSmtpSink();
  composition = await composedApp(ns, {
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
    AUTHSVC_OAUTH_SERVER_ENABLED: "true",
    AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
    // With a consent page, an authorization request is stored rather than refused first.
    AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "/consent",
    // Off by default outside embedded mode: on, so that its pages and forms are fuzzed too.
    AUTHSVC_ADMIN_CONSOLE_ENABLED: "true",
    AUTHSVC_ADMIN_CONSOLE_ADMINS: "admin@example.com",
    ...samlFuzzEnv(),
  });
  keys = {
    anon: await roleKey("anon"),
    serviceRole: await roleKey("service_role"),
    user: USER_TOKEN_PLACEHOLDER,
  };
  targets = await registerFuzzTargets((r) => composition.app.fetch(r), BASE, keys);
});

let users = 0;
let userToken = "";
/**
 * A signed-in user's access token (sign-ups are autoconfirmed), so requests reach the user's own
 * endpoints: the last one while it still works, else a new user's (a request may have signed it out).
 */
async function newUserToken(): Promise<string> {
  const me = await composition.app.request(`${BASE}/user`, {
    headers: { apikey: keys.anon, authorization: `Bearer ${userToken}` },
  });
  if (userToken !== "" && me.status === 200) return userToken;
  const signup = await composition.app.request(`${BASE}/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: keys.anon },
    body: JSON.stringify({ email: `fuzz-user-${++users}@example.com`, password: "fuzz-password-1" }),
  });
  const session = (await signup.json()) as { access_token?: string };
  if (!session.access_token) throw new Error(`the fuzz user has no session: ${JSON.stringify(session)}`);
  userToken = session.access_token;
  return userToken;
}

afterAll(async () => {
  await composition?.close();
  await ns?.drop();
  await sink?.close();
});

describe("every endpoint under malformed requests", () => {
  it("never answers 5xx", async () => {
    const endpoints = endpointsOf(composition.app);
    // The endpoints the declarations give (testing/fuzz/endpoints.ts), which the server-process fuzz test uses.
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      SERVER_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort(),
    );
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(endpoints, keys), async (generated: RequestSpec) => {
        const spec = await withUserToken(generated, newUserToken);
        const res = await composition.app.fetch(toRequest(BASE, spec));
        const body = await res.text();
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        expect(res.status, body).toBeLessThan(500);
      }),
      { numRuns: fuzzRuns(2_000) },
    );
    console.log(`[fuzz] ${endpoints.length} endpoints; statuses ${JSON.stringify(Object.fromEntries(seen))}`);
    // The requests got past the first checks: successes and several kinds of refusal.
    expect(seen.get(200)).toBeGreaterThan(0);
    expect(seen.size).toBeGreaterThan(4);
  });

  it("never answers 5xx to the ACS and the OAuth server's endpoints, with requests shaped as they read them", async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(targetedRequestArbitrary(targets), async (generated: RequestSpec) => {
        const spec = await withUserToken(generated, newUserToken);
        const res = await composition.app.fetch(toRequest(BASE, spec));
        const body = await res.text();
        const refused = new URLSearchParams(res.headers.get("location")?.split("?")[1] ?? "").get(
          "error_code",
        );
        const key = `${spec.method} ${spec.path.split("/").slice(0, 3).join("/")} ${res.status}${refused ? ` ${refused}` : ""}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        expect(
          res.status,
          `${spec.method} ${spec.path}?${spec.query} ${String(spec.body).slice(0, 2000)}: ${body}`,
        ).toBeLessThan(500);
      }),
      { numRuns: fuzzRuns(1_000) },
    );
    console.log(`[fuzz] targeted: ${JSON.stringify(Object.fromEntries(seen))}`);
    // Some signed responses signed in, and refusals came from past the first checks.
    expect([...seen.keys()].some((k) => k.startsWith("POST /sso/saml 302"))).toBe(true);
  });

  it("never answers 5xx to a lone surrogate in any field or key of a well-formed body", async () => {
    await fc.assert(
      fc.asyncProperty(fieldCaseArbitrary, async (c: FieldCase) => {
        const token =
          c.as === "user" ? await newUserToken() : c.as === "service_role" ? keys.serviceRole : keys.anon;
        const url = `${BASE}${c.path}${c.query ? `?${c.query}` : ""}`;
        const res = await composition.app.fetch(
          new Request(url, {
            method: c.method,
            headers: {
              "content-type": "application/json",
              apikey: keys.anon,
              authorization: `Bearer ${token}`,
            },
            body: JSON.stringify(c.body),
          }),
        );
        const body = await res.text();
        expect(res.status, `${c.method} ${c.path} ${JSON.stringify(c.body)}: ${body}`).toBeLessThan(500);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});
