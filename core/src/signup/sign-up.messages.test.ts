import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { breakMailer, breakSms } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { signUp } from "./sign-up.js";

const EXISTING = "99999999-9999-4999-8999-999999999999";

function setUp() {
  const deps = fakeDeps({ uriAllowList: ["https://app.example.com/**"] });
  rollingBack(deps.store);
  return deps;
}

function seed(deps: ReturnType<typeof setUp>, fields: Partial<User>): User {
  const user = blankUser({
    id: EXISTING,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    encryptedPassword: "plain$old",
    ...fields,
  });
  deps.store.tables.users.set(user.id, user);
  return user;
}

const secondsAgo = (deps: ReturnType<typeof setUp>, s: number) =>
  new Date(deps.clock.now().getTime() - s * 1000);

describe("signUp confirmation messages", () => {
  it("links to an allowed redirect_to and falls back to SITE_URL for any other", async () => {
    const deps = setUp();
    await signUp(deps, { email: "a@x.io", password: "secret1", redirectTo: "https://app.example.com/in" });
    await signUp(deps, { email: "b@x.io", password: "secret1", redirectTo: "https://evil.example/in" });
    expect(deps.mailer.sent.map((m) => m.confirmationUrl?.split("redirect_to=")[1])).toEqual([
      "https://app.example.com/in",
      "http://localhost:3000",
    ]);
  });

  it("re-sends to an unconfirmed owner only after SMTP_MAX_FREQUENCY; inside the gap it answers a fake user and sends nothing", async () => {
    const deps = setUp();
    seed(deps, { email: "a@x.io", confirmationSentAt: secondsAgo(deps, 100) });
    const early = await signUp(deps, { email: "a@x.io", password: "secret1" });
    // A 429 would tell the caller that the address is known: the answer is a fake user, as always.
    expect(early).toMatchObject({ ok: true, value: { kind: "user", user: { email: "a@x.io" } } });
    if (early.ok && early.value.kind === "user") expect(early.value.user.id).not.toBe(EXISTING);
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    deps.clock.advance(800_000);
    expect((await signUp(deps, { email: "a@x.io", password: "secret1" })).ok).toBe(true);
    expect(deps.mailer.sent).toHaveLength(1);
    expect(deps.store.tables.users.get(EXISTING)?.confirmationSentAt).toEqual(deps.clock.now());
  });

  it("texts an unconfirmed phone owner a new code, at most once per SMS_MAX_FREQUENCY", async () => {
    const deps = setUp();
    seed(deps, { phone: "15551234567", confirmationSentAt: secondsAgo(deps, 61) });
    expect((await signUp(deps, { phone: "+15551234567", password: "secret1" })).ok).toBe(true);
    expect(deps.sms.sent.map((s) => s.to)).toEqual(["15551234567"]);
    expect(await signUp(deps, { phone: "+15551234567", password: "secret1" })).toMatchObject({
      ok: true,
      value: { kind: "user" },
    });
    expect(deps.sms.sent).toHaveLength(1);
  });

  it("answers the user at once; a mail refused later is counted, leaving no user or token; a retry works", async () => {
    const deps = setUp();
    const repair = breakMailer(deps.mailer);
    const answered = await signUp(deps, { email: "a@x.io", password: "secret1" });
    expect(answered).toMatchObject({
      ok: true,
      value: { kind: "user", user: { email: "a@x.io" } },
    });
    await deps.deliveries.idle();
    // The failure names the user it removed, so that the log can say why the sign-up is gone.
    const userId = answered.ok && answered.value.kind === "user" ? answered.value.user.id : "";
    expect(deps.deliveries.failures).toEqual([
      { code: "email_send_failed", message: expect.any(String), removedUserIds: [userId] },
    ]);
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    repair();
    const retry = await signUp(deps, { email: "a@x.io", password: "secret1" });
    expect(retry).toMatchObject({ ok: true, value: { kind: "user", user: { email: "a@x.io" } } });
    expect(deps.mailer.sent).toHaveLength(1);
  });

  it("answers sms_send_failed when the gateway refuses, leaving no user; a retry works", async () => {
    const deps = setUp();
    const repair = breakSms(deps.sms);
    expect(await signUp(deps, { phone: "15551234567", password: "secret1" })).toMatchObject({
      ok: false,
      error: { code: "sms_send_failed" },
    });
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    repair();
    expect((await signUp(deps, { phone: "15551234567", password: "secret1" })).ok).toBe(true);
  });

  it("refuses past the hourly email cap with 429, creating nobody", async () => {
    const deps = fakeDeps({ mailer: { ...fakeDeps().settings.mailer, rateLimitPerHour: 1 } });
    rollingBack(deps.store);
    expect((await signUp(deps, { email: "a@x.io", password: "secret1" })).ok).toBe(true);
    expect(await signUp(deps, { email: "b@x.io", password: "secret1" })).toMatchObject({
      ok: false,
      error: { code: "over_email_send_rate_limit", message: "email rate limit exceeded" },
    });
    expect([...deps.store.tables.users.values()].map((u) => u.email)).toEqual(["a@x.io"]);
  });
});
