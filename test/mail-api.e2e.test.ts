import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  type MailApiFake,
  mailCode,
  migratedNamespace,
  REFUSED_RECIPIENT,
  startResendFake,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";
import { until } from "./support/until.js";

/**
 * Mail through a provider's HTTP API end to end: the server process with `MAILER_PROVIDER=resend`
 * pointed at a loopback fake of Resend's API, the official client signing up, the code read out of
 * the mail the fake received.
 */
let ns: FreshNamespace;
let fake: MailApiFake;
let server: ServerProcess;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-mail-api-"));
const API_KEY = "re_e2e_0123456789";

beforeAll(async () => {
  ns = await migratedNamespace();
  fake = await startResendFake(API_KEY);
  serviceKey = await roleKey("service_role");
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_PROVIDER: "resend",
      AUTHSVC_MAILER_RESEND_API_KEY: API_KEY,
      AUTHSVC_MAILER_RESEND_BASE_URL: fake.url,
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      AUTHSVC_SMTP_SENDER_NAME: "Example",
      AUTHSVC_RATE_LIMIT_EMAIL_SENT: "1000",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const admin = () =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
const mailTo = (email: string) => until(() => fake.mails.find((mail) => mail.to === email));

describe("sign-up through a mail API", () => {
  it("mails the confirmation through the API, after a rate limit's Retry-After, and its code confirms", async () => {
    const email = `api-signup-${Date.now()}@example.com`;
    fake.failNext({ kind: "rateLimited", retryAfter: "1" });
    const { data, error } = await client().signUp({ email, password: "secret-pw-123" });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const mail = await mailTo(email);
    expect(mail).toMatchObject({ from: "Example <auth@example.com>", subject: "Confirm Your Signup" });
    expect(mail.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const verified = await client().verifyOtp({ email, token: mailCode(mail), type: "signup" });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
  });

  it("a mail the provider refuses withdraws the sign-up, which may then be made again", async () => {
    const before = fake.requests.length;
    const { error } = await client().signUp({ email: REFUSED_RECIPIENT, password: "secret-pw-123" });
    expect(error).toBeNull();
    // The refusal comes after the answer; the unconfirmed user goes with its mail.
    await until(async () => {
      const { data } = await admin().listUsers();
      return fake.requests.length > before && !data.users.some((user) => user.email === REFUSED_RECIPIENT);
    });
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.mails.some((mail) => mail.to === REFUSED_RECIPIENT)).toBe(false);
  });
});
