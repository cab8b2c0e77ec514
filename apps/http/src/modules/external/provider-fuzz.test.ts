import {
  type FakeProvider,
  type FreshNamespace,
  freshNamespace,
  googleCase,
  json,
  keycloakCase,
  startFakeProvider,
} from "@authsvc/adapters/testing";
import fc from "fast-check";
import type { JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Composition } from "../../composition/compose.js";
import { COMPOSED_BASE as BASE, composedApp } from "../../testing/composed-app.js";
import { idTokenClaims, personClaims, tokenAnswer } from "../../testing/fuzz/provider-answers.js";
import { fuzzRuns } from "../../testing/fuzz/requests.js";

/**
 * External sign-in with hostile provider answers: the composed app (real Postgres adapters) signs in
 * through loopback fakes of Keycloak (token endpoint, then user info) and Google (an ID token in the
 * token answer), and takes Google ID tokens at the id_token grant, while fast-check makes up what the
 * providers answer. No answer may make it respond 5xx. `npm run fuzz` runs more (FUZZ_RUNS).
 */
let ns: FreshNamespace;
let composition: Composition;
let keycloak: FakeProvider;
let google: FakeProvider;
/** What the fakes answer next. */
let next: { token: Record<string, unknown>; userInfo: unknown; claims: JWTPayload } = {
  token: {},
  userInfo: {},
  claims: {},
};
const withAccessToken = (token: string) => ({
  ...next.token,
  access_token: next.token.access_token ?? token,
});

beforeAll(async () => {
  ns = await freshNamespace();
  keycloak = await startFakeProvider({
    ...keycloakCase.behaviour,
    tokenAnswer: async (token) => withAccessToken(token),
    resources: { "GET /realms/main/protocol/openid-connect/userinfo": () => json(200, next.userInfo) },
  });
  google = await startFakeProvider({
    ...googleCase.behaviour,
    tokenAnswer: async (token, fake) => ({
      ...withAccessToken(token),
      id_token: await fake.signIdToken(next.claims),
    }),
  });
  composition = await composedApp(ns, {
    AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
    AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: keycloak.clientId,
    AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: keycloak.secret,
    AUTHSVC_EXTERNAL_KEYCLOAK_URL: keycloak.url,
    AUTHSVC_EXTERNAL_GOOGLE_ENABLED: "true",
    AUTHSVC_EXTERNAL_GOOGLE_CLIENT_ID: google.clientId,
    AUTHSVC_EXTERNAL_GOOGLE_SECRET: google.secret,
    AUTHSVC_EXTERNAL_GOOGLE_URL: google.url,
  });
});

afterAll(async () => {
  await composition?.close();
  await ns?.drop();
  await keycloak?.close();
  await google?.close();
});

const app = () => composition.app;

/** A browser's sign-in with `provider` up to the answer of /callback, its cookies carried. */
async function signInThrough(provider: "keycloak" | "google"): Promise<Response> {
  const start = await app().fetch(new Request(`${BASE}/authorize?provider=${provider}`));
  expect(start.status).toBe(302);
  const atProvider = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
  const back = new URL(atProvider.headers.get("location") ?? "");
  // The browser carries back the cookie /authorize set, which binds the flow to it.
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return app().fetch(new Request(`${BASE}/callback${back.search}`, { headers: { cookie } }));
}

const scenario = fc.oneof(
  fc.record({ kind: fc.constant("keycloak" as const), token: tokenAnswer, userInfo: personClaims }),
  fc.record({
    kind: fc.constant("google" as const),
    token: tokenAnswer,
    claims: idTokenClaims("client-1234"),
  }),
  fc.record({ kind: fc.constant("id_token" as const), claims: idTokenClaims("client-1234") }),
);

describe("external sign-in with fuzzed provider answers", () => {
  it("never answers 5xx, whatever the token endpoint, user info or ID token says", async () => {
    expect(google.clientId).toBe("client-1234");
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        next = {
          token: "token" in s ? s.token : {},
          userInfo: "userInfo" in s ? s.userInfo : {},
          claims: "claims" in s ? s.claims : {},
        };
        let res: Response;
        if (s.kind === "id_token") {
          const idToken = await google.signIdToken(s.claims);
          res = await app().fetch(
            new Request(`${BASE}/token?grant_type=id_token`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ provider: "google", id_token: idToken }),
            }),
          );
        } else {
          res = await signInThrough(s.kind);
        }
        const body = await res.text();
        const landing = res.headers.get("location") ?? "";
        const outcome = landing.includes("access_token=") ? "signed in" : String(res.status);
        seen.set(`${s.kind} ${outcome}`, (seen.get(`${s.kind} ${outcome}`) ?? 0) + 1);
        expect(res.status, `${JSON.stringify(s)}: ${body} ${landing}`).toBeLessThan(500);
      }),
      { numRuns: fuzzRuns(300) },
    );
    console.log(`[provider fuzz] ${JSON.stringify(Object.fromEntries(seen))}`);
    // The answers got past the first checks: some sign-ins of each kind succeeded.
    expect(seen.get("keycloak signed in")).toBeGreaterThan(0);
    expect(seen.get("google signed in")).toBeGreaterThan(0);
    expect(seen.get("id_token 200")).toBeGreaterThan(0);
  });
});
