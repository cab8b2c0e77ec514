import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeProvider } from "@authsvc/adapters/testing";
import {
  type FreshNamespace,
  freshNamespace,
  githubCase,
  keycloakCase,
  startCase,
} from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Concurrent first sign-ins of one new person (8 at once, as a double-clicking user or a retrying
 * client makes them) against the server process and Postgres: every one signs into the same new
 * account, and exactly one user and one identity exist afterwards, with no user left behind by a loser.
 */
let ns: FreshNamespace;
let server: ServerProcess;
let keycloak: FakeProvider;
let github: FakeProvider;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-race-"));
const CONCURRENT = 8;

beforeAll(async () => {
  ns = await freshNamespace();
  keycloak = (await startCase(keycloakCase)).fake;
  github = (await startCase(githubCase)).fake;
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: keycloak.clientId,
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: keycloak.secret,
      AUTHSVC_EXTERNAL_KEYCLOAK_URL: keycloak.url,
      AUTHSVC_EXTERNAL_GITHUB_ENABLED: "true",
      AUTHSVC_EXTERNAL_GITHUB_CLIENT_ID: github.clientId,
      AUTHSVC_EXTERNAL_GITHUB_SECRET: github.secret,
      AUTHSVC_EXTERNAL_GITHUB_URL: github.url,
      // A person without an address is then signed in too, not asked to confirm one.
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await keycloak?.close();
  await github?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** What the database holds for the provider's subject: its identities and the users made from it. */
async function stored(provider: string, subject: string) {
  const table = (name: string) => ns.sql`${ns.sql(ns.namespace)}.${ns.sql(name)}`;
  const identities = await ns.sql`
    select user_id from ${table("identities")}
    where provider = ${provider} and provider_id = ${subject}`;
  const users = await ns.sql`
    select id from ${table("users")}
    where raw_user_meta_data ->> 'provider_id' = ${subject}`;
  return { identities: identities.map((r) => r.user_id), users: users.map((r) => r.id) };
}

async function idTokenGrant(idToken: string) {
  const res = await fetch(`${server.url}/token?grant_type=id_token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ provider: "keycloak", id_token: idToken }),
  });
  return { status: res.status, body: (await res.json()) as { user?: { id: string }; msg?: string } };
}

describe("concurrent first sign-ins of one new identity", () => {
  for (const withEmail of [true, false]) {
    it(`id_token grant, ${withEmail ? "with" : "without"} an address: all ${CONCURRENT} sign into one new user`, async () => {
      const subject = `kc-${randomBytes(6).toString("hex")}`;
      const claims = withEmail ? { email: `${subject}@example.com`, email_verified: true } : {};
      const token = await keycloak.signIdToken({ sub: subject, ...claims });
      const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => idTokenGrant(token)));
      expect(
        answers.map((a) => a.status),
        JSON.stringify(answers),
      ).toEqual(Array(CONCURRENT).fill(200));
      const ids = new Set(answers.map((a) => a.body.user?.id));
      expect(ids.size).toBe(1);
      const { identities, users } = await stored("keycloak", subject);
      expect(users).toEqual([...ids]);
      expect(identities).toEqual([...ids]);
    });
  }

  it(`callback (code flow): all ${CONCURRENT} flows of one new person land signed into one new user`, async () => {
    const id = String(Date.now());
    github.person = { ...github.person, id, email: `gh-${id}@example.com`, login: `gh-${id}` };
    // Each flow to the point where the provider sends the browser back with its code.
    const backs = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const start = await fetch(`${server.url}/authorize?provider=github`, { redirect: "manual" });
        const atProvider = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
        // Each browser carries back the cookie that binds its flow to it.
        const cookie = start.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; ");
        return { back: new URL(atProvider.headers.get("location") ?? ""), cookie };
      }),
    );
    const landings = await Promise.all(
      backs.map(async ({ back, cookie }) => {
        const res = await fetch(`${server.url}/callback${back.search}`, {
          redirect: "manual",
          headers: { cookie },
        });
        return { status: res.status, location: new URL(res.headers.get("location") ?? "") };
      }),
    );
    const fragments = landings.map((l) => Object.fromEntries(new URLSearchParams(l.location.hash.slice(1))));
    expect(landings.map((l) => l.status)).toEqual(Array(CONCURRENT).fill(302));
    expect(
      fragments.every((f) => f.access_token),
      JSON.stringify(landings.map((l) => l.location.href)),
    ).toBe(true);
    const ids = new Set(
      await Promise.all(
        fragments.map(async (f) => {
          const me = await fetch(`${server.url}/user`, {
            headers: { authorization: `Bearer ${f.access_token}` },
          });
          return ((await me.json()) as { id: string }).id;
        }),
      ),
    );
    expect(ids.size).toBe(1);
    const { identities, users } = await stored("github", id);
    expect(users).toEqual([...ids]);
    expect(identities).toEqual([...ids]);
  });
});
