import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FreshNamespace, TestIdp } from "@authsvc/adapters/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atIdp, fragmentSession, postToAcs, refusal, type SsoRig, startSsoRig } from "./support/saml.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * SAML sign-ups through the before-user-created hook, an HTTP hook on a loopback server that refuses
 * addresses of one domain: the built server, a test identity provider, auth-js's `signInWithSSO`.
 */
const SITE = "https://app.example.com";
const SECRET = `v1,whsec_${Buffer.from("a-hook-secret-of-thirty-two-bytes!").toString("base64")}`;
const verifier = new Webhook(SECRET.slice(3));

/** The before-user-created payloads the hook received (their signature checked). */
const vetted: { email: string; id: string }[] = [];
let badSignatures = 0;
let hookServer: Server;
let rig: SsoRig;
let ns: FreshNamespace;
let server: ServerProcess;
let idp: TestIdp;
let providerId: string;

beforeAll(async () => {
  hookServer = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      try {
        verifier.verify(raw, req.headers as Record<string, string>);
      } catch {
        badSignatures++;
      }
      const user = (JSON.parse(raw) as { user: { email: string; id: string } }).user;
      vetted.push({ email: user.email, id: user.id });
      const body = user.email.endsWith("@blocked.example")
        ? { error: { http_code: 403, message: "Sign-ups from this domain are closed" } }
        : {};
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}`;
  rig = await startSsoRig(
    {
      AUTHSVC_SITE_URL: SITE,
      AUTHSVC_URI_ALLOW_LIST: `${SITE}/**`,
      AUTHSVC_HOOK_BEFORE_USER_CREATED_ENABLED: "true",
      AUTHSVC_HOOK_BEFORE_USER_CREATED_URI: `${hookUrl}/before-user-created`,
      AUTHSVC_HOOK_BEFORE_USER_CREATED_SECRETS: SECRET,
    },
    ["example.com", "blocked.example"],
  );
  ({ ns, server, idp, providerId } = rig);
});

afterAll(async () => {
  await rig?.close();
  await new Promise((resolve) => hookServer?.close(resolve));
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

/** An SP-initiated sign-in of `nameId` through auth-js and the identity provider; the ACS's redirect. */
async function signIn(nameId: string) {
  idp.answer = { nameId };
  const { data, error } = await client().signInWithSSO({ providerId, options: { redirectTo: `${SITE}/in` } });
  expect(error).toBeNull();
  return postToAcs(server, (await atIdp(data?.url ?? "")).fields);
}

/** What the database holds of `email`'s account: users, their identities and sessions. */
async function stored(email: string) {
  const t = ns.sql(ns.namespace);
  const [row] = await ns.sql`
    select (select count(*) from ${t}.users where email = ${email})::int as users,
           (select count(*) from ${t}.identities where provider_id = ${email})::int as identities,
           (select count(*) from ${t}.sessions s join ${t}.users u on u.id = s.user_id
             where u.email = ${email})::int as sessions`;
  return row;
}

describe("SAML sign-ups and the before-user-created hook", () => {
  it("refuses the sign-up the hook refuses: the error lands on SITE_URL, nothing is stored", async () => {
    const landing = await signIn("eve@blocked.example");
    expect(landing.status).toBe(303);
    const refused = refusal(landing.location);
    expect(refused.origin).toBe(SITE);
    expect(refused.description).toBe("Sign-ups from this domain are closed");
    expect(refused.code).toBe("unknown");
    expect(new URL(landing.location).searchParams.get("error")).toBe("access_denied");
    expect(new URL(landing.location).hash).toBe("");
    expect(vetted.map((v) => v.email)).toEqual(["eve@blocked.example"]);
    expect(await stored("eve@blocked.example")).toEqual({ users: 0, identities: 0, sessions: 0 });
  });

  it("creates the user the hook accepted, with the id it was shown, and signs in", async () => {
    const landing = await signIn("ada@example.com");
    expect(landing.status, landing.location).toBe(302);
    const session = fragmentSession(landing.location);
    const { data } = await client().getUser(session.accessToken);
    expect(data.user?.email).toBe("ada@example.com");
    expect(vetted.at(-1)).toEqual({ email: "ada@example.com", id: data.user?.id });
    expect(await stored("ada@example.com")).toEqual({ users: 1, identities: 1, sessions: 1 });
  });

  it("does not ask the hook again when the SSO user signs in again", async () => {
    const asked = vetted.length;
    const landing = await signIn("ada@example.com");
    expect(landing.status, landing.location).toBe(302);
    expect(fragmentSession(landing.location).accessToken).not.toBe("");
    expect(vetted).toHaveLength(asked);
    expect(await stored("ada@example.com")).toEqual({ users: 1, identities: 1, sessions: 2 });
    expect(badSignatures).toBe(0);
  });

  it("makes one account of two concurrent first sign-ins of a new person, both vetted, both signed in", async () => {
    const post = () =>
      postToAcs(server, { SAMLResponse: idp.response({ nameId: "twin@example.com" }), RelayState: "" });
    const landings = await Promise.all([post(), post(), post()]);
    for (const landing of landings) expect(landing.status, landing.location).toBe(302);
    const ids = new Set<string | undefined>();
    for (const landing of landings) {
      const { data } = await client().getUser(fragmentSession(landing.location).accessToken);
      ids.add(data.user?.id);
    }
    expect(ids.size).toBe(1);
    expect(await stored("twin@example.com")).toEqual({ users: 1, identities: 1, sessions: 3 });
    const asked = vetted.filter((v) => v.email === "twin@example.com");
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.map((v) => v.id)).toContain([...ids][0]);
  });
});
