import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type CaptchaFake,
  type CaptchaProviderName,
  type FreshNamespace,
  migratedNamespace,
  startCaptchaFake,
  startSmtpSink,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Captcha on the built server, driven through auth-js's `captchaToken` option, with each provider a
 * loopback fake of its `siteverify` API that issues single-use tokens and checks the site's secret.
 */
const SECRET = "0x4AAAAAAA-test-site-secret";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-captcha-"));
const running: { fake: CaptchaFake; server: ServerProcess; ns: FreshNamespace }[] = [];
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

async function start(provider: CaptchaProviderName) {
  sink ??= await startSmtpSink();
  const fake = await startCaptchaFake(provider, SECRET);
  const ns = await migratedNamespace();
  const server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_SMTP_HOST: sink.host,
      AUTHSVC_SMTP_PORT: String(sink.port),
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      AUTHSVC_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
      AUTHSVC_SECURITY_CAPTCHA_ENABLED: "true",
      AUTHSVC_SECURITY_CAPTCHA_PROVIDER: provider,
      AUTHSVC_SECURITY_CAPTCHA_SECRET: SECRET,
      AUTHSVC_SECURITY_CAPTCHA_TIMEOUT: "1s",
      AUTHSVC_SECURITY_CAPTCHA_URL: fake.url,
    }),
    { cwd },
  );
  const started = { fake, server, ns };
  running.push(started);
  return started;
}

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

afterAll(async () => {
  for (const { fake, server, ns } of running) {
    await server.stop();
    await fake.close();
    await ns.drop();
  }
  await sink?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe("captcha with hCaptcha", () => {
  let hcaptcha: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    hcaptcha = await start("hcaptcha");
  });

  it("signs up only with a token the provider issued, and each token once", async () => {
    const { fake, server } = hcaptcha;
    const auth = client(server);
    const credentials = { email: "hc-signup@example.com", password: "correct horse battery" };
    const missing = await auth.signUp(credentials);
    expect(missing.error).toMatchObject({
      status: 400,
      code: "captcha_failed",
      message: "captcha protection: request disallowed (no captcha_token found)",
    });
    const forged = await auth.signUp({ ...credentials, options: { captchaToken: "P1_forged" } });
    expect(forged.error).toMatchObject({
      code: "captcha_failed",
      message: "captcha protection: request disallowed (invalid-input-response)",
    });
    const captchaToken = fake.issueToken();
    const ok = await auth.signUp({ ...credentials, options: { captchaToken } });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.access_token).toBeTruthy();
    expect(fake.calls.at(-1)).toMatchObject({
      response: captchaToken,
      remoteip: "127.0.0.1",
      secretMatched: true,
    });
    const replayed = await auth.signUp({ ...credentials, options: { captchaToken } });
    expect(replayed.error?.message).toBe(
      "captcha protection: request disallowed (invalid-or-already-seen-response)",
    );
  });

  it("guards password sign-in, OTP and recovery, but not refreshing a session", async () => {
    const { fake, server } = hcaptcha;
    const auth = client(server);
    const email = "hc-signin@example.com";
    const password = "correct horse battery";
    expect(
      (await auth.signUp({ email, password, options: { captchaToken: fake.issueToken() } })).error,
    ).toBeNull();

    expect((await auth.signInWithPassword({ email, password })).error?.code).toBe("captcha_failed");
    const signedIn = await auth.signInWithPassword({
      email,
      password,
      options: { captchaToken: fake.issueToken() },
    });
    expect(signedIn.error).toBeNull();
    const refreshed = await auth.refreshSession({
      refresh_token: signedIn.data.session?.refresh_token ?? "",
    });
    expect(refreshed.error).toBeNull();

    expect((await auth.signInWithOtp({ email })).error?.code).toBe("captcha_failed");
    expect(
      (await auth.signInWithOtp({ email, options: { captchaToken: fake.issueToken() } })).error,
    ).toBeNull();
    expect((await auth.resetPasswordForEmail(email)).error?.code).toBe("captcha_failed");
    expect((await auth.resetPasswordForEmail(email, { captchaToken: fake.issueToken() })).error).toBeNull();
  });

  it("does not ask a caller with the service-role key", async () => {
    const { server } = hcaptcha;
    const res = await fetch(`${server.url}/signup`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${await roleKey("service_role")}`,
      },
      body: JSON.stringify({ email: "hc-admin@example.com", password: "correct horse battery" }),
    });
    expect(res.status).toBe(200);
  });

  it("answers 500 within the timeout when the provider does not answer, and recovers", async () => {
    const { fake, server } = hcaptcha;
    const auth = client(server);
    fake.hangNext();
    const started = performance.now();
    const hung = await auth.signUp({
      email: "hc-timeout@example.com",
      password: "correct horse battery",
      options: { captchaToken: fake.issueToken() },
    });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(hung.error).toMatchObject({ status: 500, message: expect.stringMatching(/^Unexpected failure/) });
    const retried = await auth.signUp({
      email: "hc-timeout@example.com",
      password: "correct horse battery",
      options: { captchaToken: fake.issueToken() },
    });
    expect(retried.error).toBeNull();
  });
});

describe("captcha with Turnstile", () => {
  it("guards sign-up and anonymous sign-in with Turnstile's tokens", async () => {
    const { fake, server } = await start("turnstile");
    const auth = client(server);
    const anonymous = await auth.signInAnonymously();
    expect(anonymous.error?.code).toBe("captcha_failed");
    const anonOk = await auth.signInAnonymously({ options: { captchaToken: fake.issueToken() } });
    expect(anonOk.error).toBeNull();
    expect(anonOk.data.user?.is_anonymous).toBe(true);
    const credentials = { email: "ts-signup@example.com", password: "correct horse battery" };
    const forged = await auth.signUp({ ...credentials, options: { captchaToken: "0.forged" } });
    expect(forged.error?.message).toBe("captcha protection: request disallowed (invalid-input-response)");
    const ok = await auth.signUp({ ...credentials, options: { captchaToken: fake.issueToken() } });
    expect(ok.error).toBeNull();
    expect(fake.calls.every((call) => call.secretMatched)).toBe(true);
  });
});
