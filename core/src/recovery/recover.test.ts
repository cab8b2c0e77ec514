import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { breakMailer, linkTokenOf } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { recoverPassword } from "./recover.js";

const ID = "11111111-1111-4111-8111-111111111111";

function withAlice(settings: Parameters<typeof fakeDeps>[0] = {}) {
  const deps = fakeDeps(settings);
  rollingBack(deps.store);
  const alice = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date(0),
    email: "alice@example.com",
    emailConfirmedAt: new Date(0),
  });
  deps.store.tables.users.set(ID, alice);
  return deps;
}

describe("recoverPassword", () => {
  it("answers {} for an unknown address, sending and writing nothing", async () => {
    const deps = withAlice();
    expect(await recoverPassword(deps, { email: "nobody@example.com" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.store.tables.audit).toEqual([]);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
  });

  it("refuses a malformed address with 400", async () => {
    expect(await recoverPassword(withAlice(), { email: "not an email" })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
  });

  it("mails a known address a recovery link and code, stored hashed, and records the request", async () => {
    const deps = withAlice({ uriAllowList: ["https://app.example.com/*"] });
    const result = await recoverPassword(deps, {
      email: "Alice@Example.com",
      redirectTo: "https://app.example.com/reset",
    });
    expect(result).toEqual({ ok: true, value: {} });
    const mail = deps.mailer.sent[0];
    expect(mail).toMatchObject({ kind: "recovery", to: "alice@example.com" });
    expect(mail?.confirmationUrl).toMatch(/type=recovery&redirect_to=https:\/\/app\.example\.com\/reset$/);
    expect([...deps.store.tables.oneTimeTokens.values()]).toMatchObject([
      {
        type: "recovery_token",
        tokenHash: deps.tokens.hash(linkTokenOf(mail)),
        otpHash: deps.tokens.hash(`alice@example.com${mail?.token}`),
      },
    ]);
    expect(deps.store.tables.users.get(ID)?.recoverySentAt).toEqual(deps.clock.now());
    expect(deps.store.tables.audit).toMatchObject([
      { action: "user_recovery_requested", actorId: ID, actorUsername: "alice@example.com" },
    ]);
  });

  it("allows one recovery mail per SMTP_MAX_FREQUENCY (429 with the seconds left)", async () => {
    const deps = withAlice();
    await recoverPassword(deps, { email: "alice@example.com" });
    deps.clock.advance(300_000);
    expect(await recoverPassword(deps, { email: "alice@example.com" })).toMatchObject({
      ok: false,
      error: {
        code: "over_email_send_rate_limit",
        message: "For security purposes, you can only request this after 600 seconds.",
      },
    });
    deps.clock.advance(600_000);
    expect((await recoverPassword(deps, { email: "alice@example.com" })).ok).toBe(true);
    expect(deps.mailer.sent).toHaveLength(2);
  });

  it("answers {} at once; a mail refused later is counted, leaving no token and no gap; a retry works", async () => {
    const deps = withAlice();
    const repair = breakMailer(deps.mailer);
    expect(await recoverPassword(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
    await deps.deliveries.idle();
    expect(deps.deliveries.failures).toMatchObject([{ code: "email_send_failed" }]);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    expect(deps.store.tables.users.get(ID)?.recoverySentAt).toBeNull();
    repair();
    expect(await recoverPassword(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
  });

  it("stops at the hourly email cap with 429", async () => {
    const deps = withAlice({ mailer: { ...fakeDeps().settings.mailer, rateLimitPerHour: 0 } });
    expect(await recoverPassword(deps, { email: "alice@example.com" })).toMatchObject({
      ok: false,
      error: { message: "email rate limit exceeded" },
    });
    expect(deps.store.tables.users.get(ID)?.recoverySentAt).toBeNull();
  });
});
