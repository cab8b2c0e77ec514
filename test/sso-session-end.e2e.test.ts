import type { FreshNamespace, TestIdp } from "@authsvc/adapters/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fragmentSession, postToAcs, refusal, type SsoRig, startSsoRig } from "./support/saml.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * The identity provider's `SessionNotOnOrAfter` ends the session it starts: refreshes work until
 * then and are refused after, on the built server with a test identity provider (IdP-initiated).
 */
const SITE = "https://app.example.com";
let rig: SsoRig;
let ns: FreshNamespace;
let server: ServerProcess;
let idp: TestIdp;

beforeAll(async () => {
  rig = await startSsoRig({ AUTHSVC_SITE_URL: SITE }, ["example.com"]);
  ({ ns, server, idp } = rig);
});

afterAll(async () => {
  await rig?.close();
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

/** An IdP-initiated sign-in of `nameId` whose AuthnStatement ends the session at `sessionEnd`. */
async function signIn(nameId: string, sessionNotOnOrAfter?: Date) {
  const response = idp.response({ nameId, ...(sessionNotOnOrAfter ? { sessionNotOnOrAfter } : {}) });
  return postToAcs(server, { SAMLResponse: response, RelayState: "" });
}

describe("SessionNotOnOrAfter", () => {
  it("lets the session refresh until then, and refuses its refresh after", async () => {
    const end = new Date(Date.now() + 3000);
    const landing = await signIn("ada@example.com", end);
    expect(landing.status, landing.location).toBe(302);
    const first = fragmentSession(landing.location);
    const t = ns.sql(ns.namespace);
    const [stored] = await ns.sql`select s.not_after from ${t}.sessions s
      join ${t}.users u on u.id = s.user_id where u.email = 'ada@example.com'`;
    expect(stored?.not_after).toEqual(end);
    const { data: before, error: beforeError } = await client().refreshSession({
      refresh_token: first.refreshToken,
    });
    expect(beforeError).toBeNull();
    const rotated = before.session?.refresh_token ?? "";
    expect(rotated).not.toBe("");
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, end.getTime() - Date.now()) + 300));
    const { data: after, error } = await client().refreshSession({ refresh_token: rotated });
    expect(after.session).toBeNull();
    expect(error?.status).toBe(400);
    expect((error as { code?: string }).code).toBe("session_expired");
  });

  it("starts an unlimited session when the assertion names no end", async () => {
    const landing = await signIn("grace@example.com");
    const { data, error } = await client().refreshSession({
      refresh_token: fragmentSession(landing.location).refreshToken,
    });
    expect(error).toBeNull();
    const { data: me } = await client().getUser(data.session?.access_token ?? "");
    expect(me.user?.email).toBe("grace@example.com");
  });

  it("refuses an assertion whose session has already ended, starting none", async () => {
    const landing = await signIn("ended@example.com", new Date(Date.now() - 1000));
    expect(landing.status).toBe(303);
    expect(refusal(landing.location).description).toBe(
      "SAML Assertion is not valid: its session has already ended (SessionNotOnOrAfter)",
    );
    const t = ns.sql(ns.namespace);
    const [row] = await ns.sql`select count(*)::int as n from ${t}.users where email = 'ended@example.com'`;
    expect(row?.n).toBe(0);
  });
});
