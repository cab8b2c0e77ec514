import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Auth hooks on the built server, driven through auth-js: the custom access token hook as a
 * Postgres function in the run's database; send-email, before-user-created and password
 * verification attempt as HTTP hooks on a loopback server that checks every Standard Webhooks
 * signature with the shared secret; SMTP configured, to see that the send-email hook replaces it.
 */
const SECRET = `v1,whsec_${Buffer.from("a-hook-secret-of-thirty-two-bytes!").toString("base64")}`;
const verifier = new Webhook(SECRET.slice(3));
const cwd = mkdtempSync(join(tmpdir(), "authsvc-hooks-"));

/** The fields of the hook payloads these tests read. */
interface HookBody {
  readonly metadata?: Record<string, unknown>;
  readonly user?: { readonly id?: string; readonly email?: string };
  readonly user_id?: string;
  readonly valid?: boolean;
  readonly email_data?: Record<string, string>;
}
interface Received {
  readonly path: string;
  readonly body: HookBody;
}
const received: Received[] = [];
const badSignatures: string[] = [];
/** User ids whose password sign-ins the password hook rejects. */
const rejectedUsers = new Set<string>();

function answer(path: string, body: HookBody): { status: number; json?: unknown } {
  if (path === "/before-user-created") {
    const email: string = body.user?.email ?? "";
    return email.endsWith("@blocked.example")
      ? { status: 200, json: { error: { http_code: 403, message: "Sign-ups from this domain are closed" } } }
      : { status: 200, json: {} };
  }
  if (path === "/password") {
    return rejectedUsers.has(body.user_id ?? "")
      ? { status: 200, json: { decision: "reject", message: "Too many attempts, ask support" } }
      : { status: 200, json: { decision: "continue" } };
  }
  return { status: 204 };
}

let hookServer: Server;
let hookUrl: string;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let ns: FreshNamespace;
let server: ServerProcess;

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
        badSignatures.push(req.url ?? "");
      }
      const body = JSON.parse(raw);
      received.push({ path: req.url ?? "", body });
      const { status, json } = answer(req.url ?? "", body);
      res.writeHead(status, json === undefined ? {} : { "content-type": "application/json" });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}`;
  sink = await startSmtpSink();
  ns = await migratedNamespace();
  // The operator's function: adds claims, keeps the required ones.
  await ns.sql.unsafe(`
    create function ${ns.namespace}.custom_claims(event jsonb) returns jsonb language sql as $$
      select jsonb_build_object('claims', (event->'claims') || jsonb_build_object(
        'plan', 'gold', 'hook_method', event->>'authentication_method'))
    $$`);
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_SMTP_HOST: sink.host,
      AUTHSVC_SMTP_PORT: String(sink.port),
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_ENABLED: "true",
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_URI: `pg-functions://postgres/${ns.namespace}/custom_claims`,
      AUTHSVC_HOOK_SEND_EMAIL_ENABLED: "true",
      AUTHSVC_HOOK_SEND_EMAIL_URI: `${hookUrl}/send-email`,
      AUTHSVC_HOOK_SEND_EMAIL_SECRETS: SECRET,
      AUTHSVC_HOOK_BEFORE_USER_CREATED_ENABLED: "true",
      AUTHSVC_HOOK_BEFORE_USER_CREATED_URI: `${hookUrl}/before-user-created`,
      AUTHSVC_HOOK_BEFORE_USER_CREATED_SECRETS: SECRET,
      AUTHSVC_HOOK_PASSWORD_VERIFICATION_ATTEMPT_ENABLED: "true",
      AUTHSVC_HOOK_PASSWORD_VERIFICATION_ATTEMPT_URI: `${hookUrl}/password`,
      AUTHSVC_HOOK_PASSWORD_VERIFICATION_ATTEMPT_SECRETS: SECRET,
    }),
    { cwd },
  );
});

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  await sink?.close();
  await new Promise((resolve) => hookServer?.close(resolve));
  rmSync(cwd, { recursive: true, force: true });
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

async function hookCall(path: string, match: (body: HookBody) => boolean): Promise<Received> {
  for (let waited = 0; waited < 5_000; waited += 20) {
    const found = received.find((r) => r.path === path && match(r.body));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${path} hook call arrived`);
}

describe("auth hooks", () => {
  it("hands the confirmation to the send-email hook (signed, nothing over SMTP); the confirmed session carries the custom claims", async () => {
    const auth = client();
    const email = "hooked@example.com";
    const signUp = await auth.signUp({ email, password: "correct horse battery" });
    expect(signUp.error).toBeNull();

    const call = await hookCall("/send-email", (body) => body.user?.email === email);
    expect(call.body.metadata).toMatchObject({ name: "send-email" });
    expect(call.body.email_data).toMatchObject({
      email_action_type: "signup",
      site_url: "http://localhost:3000",
      redirect_to: "http://localhost:3000",
    });
    expect(call.body.email_data?.token).toMatch(/^\d{6}$/);
    expect(sink.mails).toEqual([]);

    // The hook's own link: /verify with the token hash it received.
    const verified = await auth.verifyOtp({
      token_hash: call.body.email_data?.token_hash ?? "",
      type: "signup",
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data.session?.access_token ?? "");
    expect(claims).toMatchObject({ plan: "gold", hook_method: "otp", email, role: "authenticated" });

    const signIn = await auth.signInWithPassword({ email, password: "correct horse battery" });
    expect(signIn.error).toBeNull();
    expect(decodeJwt(signIn.data.session?.access_token ?? "")).toMatchObject({
      plan: "gold",
      hook_method: "password",
    });
    const password = await hookCall("/password", (body) => body.user_id === signIn.data.user?.id);
    expect(password.body).toMatchObject({ valid: true, metadata: { name: "password-verification" } });

    const refreshed = await auth.refreshSession({ refresh_token: signIn.data.session?.refresh_token ?? "" });
    expect(decodeJwt(refreshed.data.session?.access_token ?? "")).toMatchObject({
      hook_method: "token_refresh",
    });
    expect(badSignatures).toEqual([]);
  });

  it("answers a sign-up the before-user-created hook refuses with the hook's status and message, and creates nobody", async () => {
    const auth = client();
    const email = "someone@blocked.example";
    const { error } = await auth.signUp({ email, password: "correct horse battery" });
    expect(error).toMatchObject({ status: 403, message: "Sign-ups from this domain are closed" });
    const call = await hookCall("/before-user-created", (body) => body.user?.email === email);
    expect(call.body.metadata).toMatchObject({ name: "before-user-created" });
    const [row] =
      await ns.sql`select count(*)::int as n from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(row?.n).toBe(0);
  });

  it("refuses a password sign-in the password verification attempt hook rejects, right password or not", async () => {
    const auth = client();
    const email = "watched@example.com";
    const signUp = await auth.signUp({ email, password: "correct horse battery" });
    const call = await hookCall("/send-email", (body) => body.user?.email === email);
    await auth.verifyOtp({ token_hash: call.body.email_data?.token_hash ?? "", type: "signup" });
    rejectedUsers.add(signUp.data.user?.id ?? "");

    const { data, error } = await auth.signInWithPassword({ email, password: "correct horse battery" });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_credentials",
      message: "Too many attempts, ask support",
    });
    const wrong = await auth.signInWithPassword({ email, password: "not the password" });
    expect(wrong.error).toMatchObject({ message: "Too many attempts, ask support" });
    const attempts = received.filter(
      (r) => r.path === "/password" && r.body.user_id === signUp.data.user?.id,
    );
    expect(attempts.map((r) => r.body.valid)).toEqual([true, false]);
    expect(sink.mails).toEqual([]);
  });
});
