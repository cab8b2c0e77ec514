import {
  type FakeProvider,
  type FreshNamespace,
  freshNamespace,
  json,
  keycloakCase,
  startFakeProvider,
} from "@authsvc/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Composition } from "../../composition/compose.js";
import { COMPOSED_BASE as BASE, composedApp } from "../../testing/composed-app.js";

/**
 * A verified address that several accounts hold, through the composed app (real Postgres adapters)
 * and a loopback fake Keycloak whose user info says what the test sets: the case `npm run fuzz`
 * found answering 500.
 */
const WELCOME = "http://localhost:3000/welcome";
let ns: FreshNamespace;
let composition: Composition;
let keycloak: FakeProvider;
/** Who the fake provider says signed in next. */
let person: { sub: string; email: string } = { sub: "", email: "" };

beforeAll(async () => {
  ns = await freshNamespace();
  keycloak = await startFakeProvider({
    ...keycloakCase.behaviour,
    resources: {
      "GET /realms/main/protocol/openid-connect/userinfo": () =>
        json(200, { ...person, email_verified: true, name: person.sub }),
    },
  });
  composition = await composedApp(ns, {
    AUTHSVC_URI_ALLOW_LIST: WELCOME,
    AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
    AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: keycloak.clientId,
    AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: keycloak.secret,
    AUTHSVC_EXTERNAL_KEYCLOAK_URL: keycloak.url,
  });
});

afterAll(async () => {
  await composition?.close();
  await ns?.drop();
  await keycloak?.close();
});

/** A browser's sign-in as `who` up to where /callback sends it. */
async function signInAs(who: { sub: string; email: string }): Promise<URL> {
  person = who;
  const app = composition.app;
  const start = await app.fetch(
    new Request(`${BASE}/authorize?provider=keycloak&redirect_to=${encodeURIComponent(WELCOME)}`),
  );
  expect(start.status).toBe(302);
  const atProvider = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
  const back = new URL(atProvider.headers.get("location") ?? "");
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await app.fetch(new Request(`${BASE}/callback${back.search}`, { headers: { cookie } }));
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "");
}

const userIdOf = (landing: URL): string => {
  const token = new URLSearchParams(landing.hash.slice(1)).get("access_token");
  if (!token) throw new Error(`not signed in: ${landing}`);
  const [, payload = ""] = token.split(".");
  return String(JSON.parse(Buffer.from(payload, "base64url").toString()).sub);
};

describe("a new identity whose verified address several accounts hold", () => {
  it("is refused with email_exists in the redirect, never a 500, and signs nobody in", async () => {
    const ann = userIdOf(await signInAs({ sub: "ann", email: "ann@example.com" }));
    const bea = userIdOf(await signInAs({ sub: "bea", email: "bea@example.com" }));
    expect(bea).not.toBe(ann);
    // Ann's identity at the provider now has Bea's address, verified: both accounts hold it.
    expect(userIdOf(await signInAs({ sub: "ann", email: "bea@example.com" }))).toBe(ann);
    const landing = await signInAs({ sub: "cat", email: "bea@example.com" });
    expect(`${landing.origin}${landing.pathname}`).toBe(WELCOME);
    expect(landing.hash).not.toContain("access_token");
    const error = new URLSearchParams(landing.hash.slice(1));
    expect(error.get("error_code")).toBe("email_exists");
    expect(error.get("error_description")).toBe(
      "Multiple accounts with the same email address in the same linking domain detected: default",
    );
    // The accounts are untouched: each identity still opens its own.
    expect(userIdOf(await signInAs({ sub: "bea", email: "bea@example.com" }))).toBe(bea);
    expect(userIdOf(await signInAs({ sub: "ann", email: "bea@example.com" }))).toBe(ann);
  });
});
