import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  mailCode,
  mailCount,
  migratedNamespace,
  nthMail,
  startSmtpSink,
  verifyLink,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";
import { until } from "./support/until.js";

/**
 * Email flows end to end: the server process, a real SMTP server keeping every message, links and
 * codes read out of the mail, and the official client driving the flows.
 */
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let main: ServerProcess;
let reauth: ServerProcess;
let broken: ServerProcess;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-messages-"));
const SITE = "http://localhost:3000";

/** The mail settings of every server here: the sink, and a cap no test but the cap's reaches. */
const smtpEnv = () => ({
  AUTHSVC_SMTP_HOST: sink.host,
  AUTHSVC_SMTP_PORT: String(sink.port),
  AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
  AUTHSVC_SMTP_MAX_FREQUENCY: "2",
  AUTHSVC_URI_ALLOW_LIST: "https://*.example.org/**",
  AUTHSVC_RATE_LIMIT_EMAIL_SENT: "1000",
});

beforeAll(async () => {
  ns = await migratedNamespace();
  sink = await startSmtpSink();
  serviceKey = await roleKey("service_role");
  const smtp = smtpEnv();
  [main, reauth, broken] = await Promise.all([
    startServer(productionServerEnv(ns, smtp), { cwd }),
    startServer(
      productionServerEnv(ns, { ...smtp, AUTHSVC_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: "true" }),
      { cwd },
    ),
    // SMTP on a port where nothing listens: every mail fails.
    startServer(productionServerEnv(ns, { ...smtp, AUTHSVC_SMTP_PORT: "1" }), { cwd }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([main, reauth, broken].map((s) => s?.stop()));
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server = main) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const admin = (server = main) =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
let counter = 0;
const address = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

/**
 * Follows a mailed link like a browser: one request, the 303 and its fragment. Links point at
 * AUTHSVC_API_EXTERNAL_URL (the public address a proxy would serve); here that is the test server.
 */
async function follow(link: string, server = main) {
  const url = new URL(link);
  expect(url.origin).toBe("http://localhost:9999");
  const res = await fetch(`${server.url}${url.pathname}${url.search}`, { redirect: "manual" });
  const location = res.headers.get("location") ?? "";
  const [target = "", fragment = ""] = location.split("#");
  return { status: res.status, target, params: Object.fromEntries(new URLSearchParams(fragment)) };
}

async function confirmedUser(tag: string) {
  const email = address(tag);
  const { error } = await admin().createUser({ email, password: "secret-pw", email_confirm: true });
  expect(error).toBeNull();
  return email;
}

describe("sign-up confirmation", () => {
  it("by link: the mailed link logs the user in once, then is spent", async () => {
    const email = address("link");
    const { data } = await client().signUp({ email, password: "secret-pw" });
    expect(data.session).toBeNull();
    const mail = await nthMail(sink, email, 1);
    expect(mail.subject).toBe("Confirm Your Signup");
    const link = verifyLink(mail);
    expect(link).toContain("type=signup");
    const first = await follow(link);
    expect(first.status).toBe(303);
    expect(first.target).toBe(SITE);
    expect(first.params).toMatchObject({ token_type: "bearer", type: "signup", expires_in: "3600" });
    const me = await client().getUser(first.params.access_token);
    expect(me.data.user?.email).toBe(email);
    expect(typeof me.data.user?.email_confirmed_at).toBe("string");
    const again = await follow(link);
    expect(again.params).toMatchObject({ error: "access_denied", error_code: "otp_expired" });
    expect(again.params.access_token).toBeUndefined();
  });

  it("by code: verifyOtp with the mailed code answers a session", async () => {
    const email = address("code");
    await client().signUp({ email, password: "secret-pw" });
    const code = mailCode(await nthMail(sink, email, 1));
    const { data, error } = await client().verifyOtp({ email, token: code, type: "signup" });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect((await client().verifyOtp({ email, token: code, type: "signup" })).error).toMatchObject({
      status: 403,
      code: "otp_expired",
    });
  });

  it("resend is throttled per address, then sends a new code that replaces the old one", async () => {
    const email = address("resend");
    await client().signUp({ email, password: "secret-pw" });
    const firstCode = mailCode(await nthMail(sink, email, 1));
    const early = await client().resend({ type: "signup", email });
    expect(early.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    expect(early.error?.message).toMatch(/only request this after \d+ seconds?/);
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the configured 2 s gap must pass
    expect((await client().resend({ type: "signup", email })).error).toBeNull();
    const secondCode = mailCode(await nthMail(sink, email, 2));
    const stale = await client().verifyOtp({ email, token: firstCode, type: "signup" });
    if (firstCode !== secondCode) expect(stale.error).toMatchObject({ code: "otp_expired" });
    expect((await client().verifyOtp({ email, token: secondCode, type: "signup" })).error).toBeNull();
  });

  it("redirect_to inside the allow list is kept; anything else falls back to SITE_URL", async () => {
    const allowed = address("redir");
    await client().signUp({
      email: allowed,
      password: "secret-pw",
      options: { emailRedirectTo: "https://app.example.org/cb" },
    });
    const ok = await follow(verifyLink(await nthMail(sink, allowed, 1)));
    expect(ok.target).toBe("https://app.example.org/cb");
    const refused = address("redir");
    await client().signUp({
      email: refused,
      password: "secret-pw",
      options: { emailRedirectTo: "https://example.org.evil.com/cb" },
    });
    const link = verifyLink(await nthMail(sink, refused, 1));
    expect(decodeURIComponent(link)).not.toContain("evil.com");
    expect((await follow(link)).target).toBe(SITE);
  });
});

describe("GET /verify failures", () => {
  it.each([
    "javascript:alert(1)",
    "https://evil.example.net/",
    "https://app.example.org@evil.example.net/",
    "//evil.example.net/x",
  ])("a bad link with redirect_to %s lands on SITE_URL with the error in the fragment", async (target) => {
    const query = new URLSearchParams({ type: "signup", token: "not-a-real-token", redirect_to: target });
    const res = await fetch(`${main.url}/verify?${query}`, { redirect: "manual" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith(`${SITE}#`)).toBe(true);
    const params = Object.fromEntries(new URLSearchParams(location.split("#")[1]));
    expect(params).toMatchObject({ error: "access_denied", error_code: "otp_expired" });
    expect(params.access_token).toBeUndefined();
  });
});

describe("magic links and recovery", () => {
  it("magic link by link", async () => {
    const email = await confirmedUser("magic");
    expect((await client().signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const mail = await nthMail(sink, email, 1);
    expect(mail.subject).toBe("Your Magic Link");
    const followed = await follow(verifyLink(mail));
    expect(followed.params).toMatchObject({ type: "magiclink", token_type: "bearer" });
  });

  it("magic link by code", async () => {
    const email = await confirmedUser("magiccode");
    await client().signInWithOtp({ email });
    const code = mailCode(await nthMail(sink, email, 1));
    const { data, error } = await client().verifyOtp({ email, token: code, type: "magiclink" });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });

  it("signInWithOtp with shouldCreateUser false and an unknown address is 422 otp_disabled, nothing created", async () => {
    const email = address("nobody");
    const { error } = await client().signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toMatchObject({ status: 422, code: "otp_disabled" });
    const rows = await ns.sql`select 1 from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows).toHaveLength(0);
  });

  it("recovery, then a new password", async () => {
    const email = await confirmedUser("recover");
    const c = client();
    expect((await c.resetPasswordForEmail(email)).error).toBeNull();
    const mail = await nthMail(sink, email, 1);
    expect(mail.subject).toBe("Reset Your Password");
    const { error } = await c.verifyOtp({ email, token: mailCode(mail), type: "recovery" });
    expect(error).toBeNull();
    expect((await c.updateUser({ password: "brand-new-pw" })).error).toBeNull();
    expect((await client().signInWithPassword({ email, password: "brand-new-pw" })).error).toBeNull();
  });

  it("recovery for an unknown address answers {} and sends nothing", async () => {
    const email = address("ghost");
    const { data, error } = await client().resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(mailCount(sink, email)).toBe(0);
  });
});

describe("invitations, email change and reauthentication", () => {
  it("an invited user accepts through the mailed link", async () => {
    const email = address("invitee");
    expect((await admin().inviteUserByEmail(email)).error).toBeNull();
    const mail = await nthMail(sink, email, 1);
    expect(mail.subject).toBe("You have been invited");
    const followed = await follow(verifyLink(mail));
    expect(followed.params).toMatchObject({ type: "invite" });
    const c = client();
    await c.setSession({
      access_token: followed.params.access_token ?? "",
      refresh_token: followed.params.refresh_token ?? "",
    });
    expect((await c.updateUser({ password: "chosen-pw" })).error).toBeNull();
    expect((await client().signInWithPassword({ email, password: "chosen-pw" })).error).toBeNull();
  });

  it("a secure email change needs both the old and the new address to confirm", async () => {
    const oldEmail = await confirmedUser("old");
    const newEmail = address("new");
    const c = client();
    await c.signInWithPassword({ email: oldEmail, password: "secret-pw" });
    const requested = await c.updateUser({ email: newEmail });
    expect(requested.error).toBeNull();
    expect(typeof requested.data.user?.email_change_sent_at).toBe("string");
    expect(requested.data.user?.new_email).toBe(newEmail);
    const toNew = await nthMail(sink, newEmail, 1);
    const toOld = await nthMail(sink, oldEmail, 1);
    expect(toNew.subject).toBe("Confirm Email Change");
    const first = await follow(verifyLink(toNew));
    expect(first.params.message).toMatch(/Confirmation link accepted/);
    expect((await admin().listUsers()).data.users.find((u) => u.email === newEmail)).toBeUndefined();
    const second = await follow(verifyLink(toOld));
    expect(second.params.access_token).toBeTruthy();
    expect((await client().getUser(second.params.access_token)).data.user?.email).toBe(newEmail);
  });

  it("a password change with reauthentication required needs the mailed nonce", async () => {
    const email = address("reauth");
    await admin(reauth).createUser({ email, password: "secret-pw", email_confirm: true });
    const c = client(reauth);
    await c.signInWithPassword({ email, password: "secret-pw" });
    expect((await c.updateUser({ password: "next-pw-1" })).error).toMatchObject({
      status: 400,
      code: "reauthentication_needed",
    });
    expect((await c.reauthenticate()).error).toBeNull();
    const nonce = mailCode(await nthMail(sink, email, 1));
    expect(
      (await c.updateUser({ password: "next-pw-1", nonce: "000000" === nonce ? "111111" : "000000" })).error,
    ).toMatchObject({
      status: 422,
      code: "reauthentication_not_valid",
    });
    expect((await c.updateUser({ password: "next-pw-1", nonce })).error).toBeNull();
    expect((await client(reauth).signInWithPassword({ email, password: "next-pw-1" })).error).toBeNull();
  });
});

describe("admin generate_link", () => {
  const cases = [
    { type: "signup", verification: "signup", needs: "new" },
    { type: "invite", verification: "invite", needs: "new" },
    { type: "magiclink", verification: "magiclink", needs: "existing" },
    { type: "recovery", verification: "recovery", needs: "existing" },
    { type: "email_change_current", verification: "email_change_current", needs: "existing" },
    { type: "email_change_new", verification: "email_change_new", needs: "existing" },
  ] as const;

  it.each(cases)(
    "$type: an action link that works, and no mail sent",
    async ({ type, verification, needs }) => {
      const email = needs === "existing" ? await confirmedUser(`gl-${type}`) : address(`gl-${type}`);
      const newEmail = address("gl-new");
      const before = sink.mails.length;
      const params =
        type === "signup"
          ? {
              type,
              email,
              password: "secret-pw",
              options: { data: { status: "alpha" }, redirectTo: "https://app.example.org/x" },
            }
          : type === "email_change_current" || type === "email_change_new"
            ? { type, email, newEmail }
            : { type, email };
      const { data, error } = await admin().generateLink(params as never);
      expect(error).toBeNull();
      expect(Object.keys(data.properties ?? {}).sort()).toEqual(
        ["action_link", "email_otp", "hashed_token", "redirect_to", "verification_type"].sort(),
      );
      expect(data.properties?.verification_type).toBe(verification);
      expect(data.properties?.action_link).toContain("?token=");
      const linkType = verification.startsWith("email_change") ? "email_change" : verification;
      expect(data.properties?.action_link).toContain(`type=${linkType}`);
      expect(data.properties?.action_link).toContain("redirect_to=");
      if (type === "signup") {
        expect(data.user?.user_metadata).toEqual({ status: "alpha" });
        expect(data.properties?.redirect_to).toBe("https://app.example.org/x");
      }
      if (linkType === "email_change") expect(data.user?.new_email).toBe(newEmail);
      expect(sink.mails.length).toBe(before);
      if (linkType !== "email_change") {
        const followed = await follow(data.properties?.action_link ?? "");
        expect(followed.params.access_token).toBeTruthy();
      }
    },
  );
});

describe("limits and failures", () => {
  it("an SMTP failure after a sign-up's answer is logged and undone: no half-created user, asking again works", async () => {
    const email = address("smtpdown");
    const res = await fetch(`${broken.url}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "secret-pw" }),
    });
    // The mail is delivered after the answer (a known and a new address must answer alike).
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email, confirmation_sent_at: expect.any(String) });
    const failure = await until(() =>
      broken
        .lines()
        .find((l) => l.error_code === "email_send_failed" && String(l.msg).includes("not delivered")),
    );
    expect(failure).toMatchObject({ level: expect.anything() });
    const rows = await ns.sql`select 1 from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows).toHaveLength(0);
    // Asking again through a working server succeeds at once, and the mailed code works.
    expect((await client().signUp({ email, password: "secret-pw" })).error).toBeNull();
    const code = mailCode(await nthMail(sink, email, 1));
    expect((await client().verifyOtp({ email, token: code, type: "signup" })).error).toBeNull();
  });

  it("an SMTP failure on a recovery leaves no usable code and no gap: asking again works at once", async () => {
    const email = await confirmedUser("recoverdown");
    const undelivered = () => broken.lines().filter((l) => String(l.msg).includes("not delivered")).length;
    const before = undelivered();
    expect((await client(broken).resetPasswordForEmail(email)).error).toBeNull();
    // The mail goes after the answer; once its failure is logged, it has been undone.
    await until(() => undelivered() > before);
    const [row] =
      await ns.sql`select recovery_sent_at from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(row?.recovery_sent_at).toBeNull();
    const tokens = await ns.sql`
      select 1 from ${ns.sql(ns.namespace)}.one_time_tokens t
      join ${ns.sql(ns.namespace)}.users u on u.id = t.user_id where u.email = ${email}`;
    expect(tokens).toHaveLength(0);
    expect((await client().resetPasswordForEmail(email)).error).toBeNull();
    const code = mailCode(await nthMail(sink, email, 1));
    expect((await client().verifyOtp({ email, token: code, type: "recovery" })).error).toBeNull();
  });

  it("an admin invitation is still sent before the answer: SMTP down is 500 email_send_failed, no user", async () => {
    const email = address("invitedown");
    const res = await fetch(`${broken.url}/invite`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${serviceKey}` },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error_code: "email_send_failed" });
    const rows = await ns.sql`select 1 from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows).toHaveLength(0);
  });
});
