import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, mailCode, migratedNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * A sign-up as a new user makes it with auth-js against the real server and a real SMTP server: what
 * the sign-up answers, and confirming it with the mailed code as Supabase documents it.
 */
let confirming: ServerProcess;
let hiding: ServerProcess;
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-signup-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  sink = await startSmtpSink();
  const smtp = {
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
  };
  [confirming, hiding] = await Promise.all([
    startServer(productionServerEnv(ns, smtp), { cwd }),
    startServer(productionServerEnv(ns, { ...smtp, AUTHSVC_SECURITY_SIGNUP_HIDE_EXISTING: "true" }), { cwd }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([confirming?.stop(), hiding?.stop()]);
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
let counter = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

describe("confirming a sign-up with the mailed code", () => {
  it("verifyOtp type 'email' confirms it, and the chosen password then signs in", async () => {
    const email = uniqueEmail("code");
    const signUp = await client(confirming).signUp({ email, password: "chosen-pw-1" });
    expect(signUp.error).toBeNull();
    const mail = await sink.next(email);
    expect(mail.subject).toBe("Confirm Your Signup");
    const verified = await client(confirming).verifyOtp({ email, token: mailCode(mail), type: "email" });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));
    const signIn = await client(confirming).signInWithPassword({ email, password: "chosen-pw-1" });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.id).toBe(signUp.data.user?.id);
  });
});

describe("the sign-up answer's identities", () => {
  it("a new user's holds its email identity; once the address is confirmed, a sign-up answers []", async () => {
    const email = uniqueEmail("identity");
    const first = await client(confirming).signUp({ email, password: "chosen-pw-1" });
    expect(first.error).toBeNull();
    expect(first.data.user?.identities).toMatchObject([
      { provider: "email", user_id: first.data.user?.id, identity_data: { email, email_verified: false } },
    ]);
    const mail = await sink.next(email);
    await client(confirming).verifyOtp({ email, token: mailCode(mail), type: "signup" });
    const again = await client(confirming).signUp({ email, password: "other-pw-2" });
    expect(again.error).toBeNull();
    expect(again.data.user?.identities).toEqual([]);
  });

  it("with AUTHSVC_SECURITY_SIGNUP_HIDE_EXISTING a new user's is [] too", async () => {
    const { data, error } = await client(hiding).signUp({
      email: uniqueEmail("hidden"),
      password: "pw-123456",
    });
    expect(error).toBeNull();
    expect(data.user?.identities).toEqual([]);
  });
});
