import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { breakMailer } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { sendMagicLink } from "./send-magic-link.js";

const ID = "11111111-1111-4111-8111-111111111111";

function setUp(settings: Parameters<typeof fakeDeps>[0] = {}, user?: Partial<User>) {
  const deps = fakeDeps(settings);
  rollingBack(deps.store);
  if (user) {
    const seeded = blankUser({
      id: ID,
      aud: "authenticated",
      role: "authenticated",
      createdAt: new Date(0),
      ...user,
    });
    deps.store.tables.users.set(ID, seeded);
  }
  return deps;
}
const signup = fakeDeps().settings.signup;
const tokenTypes = (deps: ReturnType<typeof setUp>) =>
  [...deps.store.tables.oneTimeTokens.values()].map((t) => t.type);

describe("sendMagicLink refusals", () => {
  it("refuses an unknown address with createUser false (422 otp_disabled), creating nothing", async () => {
    const deps = setUp();
    expect(await sendMagicLink(deps, { email: "new@x.io", createUser: false })).toMatchObject({
      ok: false,
      error: { code: "otp_disabled", message: "Signups not allowed for otp" },
    });
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.mailer.sent).toEqual([]);
  });

  it("refuses an unknown address when sign-ups are disabled (422 signup_disabled)", async () => {
    const deps = setUp({ signup: { ...signup, disabled: true } });
    expect(await sendMagicLink(deps, { email: "new@x.io" })).toMatchObject({
      ok: false,
      error: { code: "signup_disabled" },
    });
  });

  it("refuses when email logins are disabled, and a malformed address", async () => {
    expect(
      await sendMagicLink(setUp({ signup: { ...signup, emailEnabled: false } }), { email: "a@x.io" }),
    ).toMatchObject({
      ok: false,
      error: { code: "email_provider_disabled", message: "Email logins are disabled" },
    });
    expect(await sendMagicLink(setUp(), { email: "nope" })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
  });
});

describe("sendMagicLink", () => {
  it("signs up an unknown address without a password and mails a link that confirms it", async () => {
    const deps = setUp({ uriAllowList: ["https://app.example.com/**"] });
    const result = await sendMagicLink(deps, {
      email: "New@X.io",
      data: { plan: "free" },
      redirectTo: "https://app.example.com/in",
    });
    expect(result).toEqual({ ok: true, value: {} });
    const [user] = deps.store.tables.users.values();
    expect(user).toMatchObject({
      email: "new@x.io",
      encryptedPassword: null,
      emailConfirmedAt: null,
      confirmationSentAt: deps.clock.now(),
      userMetadata: { plan: "free" },
    });
    expect(deps.store.tables.identities.size).toBe(1);
    expect(deps.mailer.sent).toMatchObject([{ kind: "magic_link", to: "new@x.io" }]);
    expect(deps.mailer.sent[0]?.confirmationUrl).toMatch(
      /type=magiclink&redirect_to=https:\/\/app\.example\.com\/in$/,
    );
    expect(tokenTypes(deps)).toEqual(["confirmation_token"]);
  });

  it("re-sends an unconfirmed address its confirmation at most once per SMTP_MAX_FREQUENCY", async () => {
    const deps = setUp({}, { email: "a@x.io", confirmationSentAt: new Date(Date.UTC(2025, 11, 31, 23, 45)) });
    expect(await sendMagicLink(deps, { email: "a@x.io" })).toEqual({ ok: true, value: {} });
    expect(tokenTypes(deps)).toEqual(["confirmation_token"]);
    deps.clock.advance(899_000);
    expect(await sendMagicLink(deps, { email: "a@x.io" })).toMatchObject({
      ok: false,
      error: {
        code: "over_email_send_rate_limit",
        message: expect.stringContaining("after 1 seconds"),
      },
    });
  });

  it("mails a confirmed user a recovery-token magic link, at most one per 60 s", async () => {
    const deps = setUp({}, { email: "a@x.io", emailConfirmedAt: new Date(0), recoverySentAt: new Date() });
    expect(await sendMagicLink(deps, { email: "a@x.io", data: { ignored: true } })).toEqual({
      ok: true,
      value: {},
    });
    expect(deps.store.tables.users.get(ID)).toMatchObject({
      magicLinkSentAt: deps.clock.now(),
      userMetadata: {},
    });
    expect(tokenTypes(deps)).toEqual(["recovery_token"]);
    deps.clock.advance(20_000);
    expect(await sendMagicLink(deps, { email: "a@x.io" })).toMatchObject({
      ok: false,
      error: { message: "For security purposes, you can only request this after 40 seconds." },
    });
    deps.clock.advance(40_000);
    expect((await sendMagicLink(deps, { email: "a@x.io" })).ok).toBe(true);
    expect(deps.mailer.sent).toHaveLength(2);
  });

  it("creates the user confirmed under mailer autoconfirm and sends a plain magic link", async () => {
    const deps = setUp({ signup: { ...signup, mailerAutoconfirm: true } });
    expect((await sendMagicLink(deps, { email: "a@x.io" })).ok).toBe(true);
    expect([...deps.store.tables.users.values()][0]?.emailConfirmedAt).toEqual(deps.clock.now());
    expect(tokenTypes(deps)).toEqual(["recovery_token"]);
  });

  it("answers {} at once; a mail refused later is counted, leaving no user or token; a retry works", async () => {
    const deps = setUp();
    const repair = breakMailer(deps.mailer);
    expect(await sendMagicLink(deps, { email: "a@x.io" })).toEqual({ ok: true, value: {} });
    await deps.deliveries.idle();
    expect(deps.deliveries.failures).toMatchObject([{ code: "email_send_failed" }]);
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    repair();
    expect(await sendMagicLink(deps, { email: "a@x.io" })).toEqual({ ok: true, value: {} });
  });

  it("leaves the magic-link gap untouched when the mail fails", async () => {
    const deps = setUp({}, { email: "a@x.io", emailConfirmedAt: new Date(0) });
    const repair = breakMailer(deps.mailer);
    expect((await sendMagicLink(deps, { email: "a@x.io" })).ok).toBe(true);
    await deps.deliveries.idle();
    expect(deps.store.tables.users.get(ID)?.magicLinkSentAt).toBeNull();
    repair();
    expect((await sendMagicLink(deps, { email: "a@x.io" })).ok).toBe(true);
  });

  it("stops at the hourly email cap with 429", async () => {
    const deps = setUp({ mailer: { ...fakeDeps().settings.mailer, rateLimitPerHour: 1 } });
    expect((await sendMagicLink(deps, { email: "a@x.io" })).ok).toBe(true);
    expect(await sendMagicLink(deps, { email: "b@x.io" })).toMatchObject({
      ok: false,
      error: { code: "over_email_send_rate_limit", message: "email rate limit exceeded" },
    });
    expect(deps.store.tables.users.size).toBe(1);
  });
});
