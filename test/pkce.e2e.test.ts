import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  nthMail,
  startSmtpSink,
  verifyLink,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, type GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserClient } from "./support/browser-client.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The PKCE flow of every email link, end to end: the official client with `flowType: 'pkce'` keeps
 * its code verifier in a storage the test provides, the link read from a real SMTP server lands on
 * the redirect with `?code=`, and `exchangeCodeForSession` turns the code into a working session.
 */
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: ServerProcess;
let serviceKey: string;
const WELCOME = "http://localhost:3000/welcome";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-pkce-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  sink = await startSmtpSink();
  serviceKey = await roleKey("service_role");
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_SMTP_HOST: sink.host,
      AUTHSVC_SMTP_PORT: String(sink.port),
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      AUTHSVC_SMTP_MAX_FREQUENCY: "1",
      AUTHSVC_RATE_LIMIT_EMAIL_SENT: "1000",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** A browser-side client in the PKCE flow, with the storage it keeps its verifiers in. */
function pkceClient() {
  return browserClient(server.url, "pkce");
}
const admin = () =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
let counter = 0;
const address = (tag: string) => `pkce-${tag}-${Date.now()}-${++counter}@example.com`;

/** Follows a mailed link like a browser (one request); answers where the 303 lands. */
async function follow(link: string): Promise<URL> {
  const url = new URL(link);
  const res = await fetch(`${server.url}${url.pathname}${url.search}`, { redirect: "manual" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location") ?? "");
}

/** The landing page's work: exchange `?code=` for the flow `sb_flow_id` names. */
async function exchange(client: GoTrueClient, landing: URL) {
  expect(`${landing.origin}${landing.pathname}`).toBe(WELCOME);
  const code = landing.searchParams.get("code");
  expect(code).toBeTruthy();
  const flowId = landing.searchParams.get("sb_flow_id");
  return client.exchangeCodeForSession(code ?? "", flowId ? { flowId } : undefined);
}

async function confirmedUser(tag: string) {
  const email = address(tag);
  const { error } = await admin().createUser({ email, password: "secret-pw", email_confirm: true });
  expect(error).toBeNull();
  return email;
}

describe("PKCE email flows through auth-js", () => {
  it("sign-up confirmation: the link lands with ?code=, exchanged once for a session that works", async () => {
    const { client } = pkceClient();
    const email = address("signup");
    const { data, error } = await client.signUp({
      email,
      password: "secret-pw",
      options: { emailRedirectTo: WELCOME },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const link = verifyLink(await nthMail(sink, email, 1));
    expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_/);
    const landing = await follow(link);
    const done = await exchange(client, landing);
    expect(done.error).toBeNull();
    expect(done.data.user?.email).toBe(email);
    expect(done.data.session?.user.email_confirmed_at).toEqual(expect.any(String));
    const me = await client.getUser();
    expect(me.data.user?.email).toBe(email);

    // The code is single use: a second client holding the same verifier gets flow_state_not_found.
    const again = await fetch(`${server.url}/token?grant_type=pkce`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth_code: landing.searchParams.get("code"), code_verifier: "x".repeat(43) }),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error_code: "flow_state_not_found" });
  });

  it("magic link: signInWithOtp's link yields a code for a magiclink session", async () => {
    const email = await confirmedUser("magic");
    const { client } = pkceClient();
    expect((await client.signInWithOtp({ email, options: { emailRedirectTo: WELCOME } })).error).toBeNull();
    const done = await exchange(client, await follow(verifyLink(await nthMail(sink, email, 1))));
    expect(done.error).toBeNull();
    const amr = JSON.parse(
      Buffer.from(done.data.session?.access_token.split(".")[1] ?? "", "base64url").toString(),
    ).amr;
    expect(amr[0].method).toBe("magiclink");
  });

  it("recovery: the exchange signs in for a password change (PASSWORD_RECOVERY)", async () => {
    const email = await confirmedUser("recover");
    const { client } = pkceClient();
    const events: string[] = [];
    client.onAuthStateChange((event) => void events.push(event));
    expect((await client.resetPasswordForEmail(email, { redirectTo: WELCOME })).error).toBeNull();
    const done = await exchange(client, await follow(verifyLink(await nthMail(sink, email, 1))));
    expect(done.error).toBeNull();
    expect((done.data as { redirectType?: string }).redirectType).toBe("recovery");
    expect(events).toContain("PASSWORD_RECOVERY");
    expect((await client.updateUser({ password: "new-secret-pw" })).error).toBeNull();
    const { client: other } = pkceClient();
    expect((await other.signInWithPassword({ email, password: "new-secret-pw" })).error).toBeNull();
  });

  it("email change: both addresses confirm; the second link's code signs in with the new address", async () => {
    const email = await confirmedUser("change");
    const { client } = pkceClient();
    expect((await client.signInWithPassword({ email, password: "secret-pw" })).error).toBeNull();
    const newEmail = address("changed");
    expect((await client.updateUser({ email: newEmail }, { emailRedirectTo: WELCOME })).error).toBeNull();
    const first = await follow(verifyLink(await nthMail(sink, newEmail, 1)));
    expect(first.searchParams.get("message")).toMatch(/^Confirmation link accepted/);
    const done = await exchange(client, await follow(verifyLink(await nthMail(sink, email, 1))));
    expect(done.error).toBeNull();
    expect(done.data.user?.email).toBe(newEmail);
  });

  it("a wrong verifier is refused with bad_code_verifier and the right one still works", async () => {
    const email = address("verifier");
    const { client } = pkceClient();
    await client.signUp({ email, password: "secret-pw", options: { emailRedirectTo: WELCOME } });
    const landing = await follow(verifyLink(await nthMail(sink, email, 1)));
    const wrong = await fetch(`${server.url}/token?grant_type=pkce`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ auth_code: landing.searchParams.get("code"), code_verifier: "y".repeat(43) }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      code: "bad_code_verifier",
      message: "code challenge does not match previously saved code verifier",
    });
    expect((await exchange(client, landing)).error).toBeNull();
  });

  it("a soft-deleted user gets no session from a code issued before the deletion, nor from the password", async () => {
    const email = await confirmedUser("deleted");
    const { client } = pkceClient();
    expect((await client.signInWithOtp({ email, options: { emailRedirectTo: WELCOME } })).error).toBeNull();
    const landing = await follow(verifyLink(await nthMail(sink, email, 1)));
    const listed = await admin().listUsers();
    const id = listed.data.users.find((u) => u.email === email)?.id ?? "";
    expect((await admin().deleteUser(id, true)).error).toBeNull();

    const done = await exchange(client, landing);
    expect(done.data.session).toBeNull();
    expect(done.error).toMatchObject({ status: 404, code: "flow_state_not_found" });
    const password = await client.signInWithPassword({ email, password: "secret-pw" });
    expect(password.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    const [row] = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.sessions where user_id = ${id}`;
    expect(row?.n).toBe(0);
  });
});
