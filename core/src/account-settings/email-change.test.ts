import { describe, expect, it } from "vitest";
import { blankUser, type Identity, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import type { Mail, OneTimeTokenType } from "../messaging/index.js";
import type { AuthSettings } from "../settings.js";
import { defaultAuthSettings, fakeDeps } from "../testing/index.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { sending } from "../testing/verification/sending.js";
import { confirmEmailChange, resendEmailChange } from "../verification/index.js";
import { requestEmailChange } from "./request-email-change.js";

const ID = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const SITE = "http://localhost:3000";
const PENDING = "Confirmation link accepted. Please proceed to confirm link sent to the other email";
const failure = (code: string, message: string) => ({
  ok: false,
  error: { code, message },
});
const CHANGE_TYPES: OneTimeTokenType[] = ["email_change_token_new", "email_change_token_current"];

/** Alice (confirmed alice@example.com, email identity) and Bob (bob@example.com). */
function setUp(settings: Partial<AuthSettings> = {}, alice: Partial<User> = {}) {
  const deps = fakeDeps(settings);
  const created = deps.clock.now();
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: created,
    email: "alice@example.com",
    emailConfirmedAt: created,
    appMetadata: { provider: "email", providers: ["email"] },
    ...alice,
  });
  deps.store.tables.users.set(ID, user);
  if (user.email) {
    const identity: Identity = {
      id: "e0000000-0000-4000-8000-000000000000",
      providerId: ID,
      userId: ID,
      provider: "email",
      identityData: { sub: ID, email: user.email, email_verified: true, phone_verified: false },
      lastSignInAt: null,
      createdAt: created,
      updatedAt: created,
    };
    deps.store.tables.identities.set(identity.id, identity);
  }
  deps.store.tables.users.set(
    OTHER,
    blankUser({
      id: OTHER,
      aud: "authenticated",
      role: "authenticated",
      createdAt: created,
      email: "bob@example.com",
    }),
  );
  deps.clock.advance(3_600_000);
  const stored = () => deps.store.tables.users.get(ID) as User;
  const request = (newEmail: string) =>
    sending(deps, async (repos, outbox) =>
      requestEmailChange(deps, repos, {
        user: stored(),
        newEmail,
        redirectTo: SITE,
        now: deps.clock.now(),
        outbox,
      }),
    );
  /** Follows the link of `mail` as `/verify` does: consume the token, then confirm. */
  const follow = (mail: Mail | undefined) =>
    deps.store.transaction(async (repos) => {
      const token = /[?&]token=([^&]+)/.exec(mail?.confirmationUrl ?? "")?.[1] ?? "";
      const consumed = await repos.oneTimeTokens.consumeByTokenHash(deps.tokens.hash(token), CHANGE_TYPES);
      if (consumed === null) throw new Error("the link's token is not live");
      return confirmEmailChange(deps, repos, stored(), consumed, deps.clock.now());
    });
  /** Types the code of `mail` as `/verify` does with `email` + `token`. */
  const typeCode = (mail: Mail | undefined) =>
    deps.store.transaction(async (repos) => {
      const address = mail?.to ?? "";
      const otpHash = deps.tokens.hash(address + (mail?.token ?? ""));
      const consumed = await repos.oneTimeTokens.consumeByOtp(address, otpHash, CHANGE_TYPES);
      if (consumed === null) throw new Error("the code is not live");
      return confirmEmailChange(deps, repos, stored(), consumed, deps.clock.now());
    });
  const mailTo = (address: string) => deps.mailer.sent.filter((m) => m.to === address).at(-1);
  const liveTokens = () => [...deps.store.tables.oneTimeTokens.values()];
  return { deps, stored, request, follow, typeCode, mailTo, liveTokens, created };
}

describe("requestEmailChange", () => {
  it("mails the new and the current address under secure change, storing only hashes", async () => {
    const { deps, request, stored, liveTokens } = setUp();
    expect(await request("alice.new@example.com")).toMatchObject({
      ok: true,
      value: { email: "alice@example.com", emailChange: "alice.new@example.com" },
    });
    expect(stored()).toMatchObject({
      emailChange: "alice.new@example.com",
      emailChangeSentAt: deps.clock.now(),
    });
    expect(deps.mailer.sent).toEqual([
      {
        kind: "email_change",
        to: "alice.new@example.com",
        email: "alice@example.com",
        newEmail: "alice.new@example.com",
        confirmationUrl: `http://localhost:9999/verify?token=rt1&type=email_change&redirect_to=${SITE}`,
        token: "000001",
      },
      {
        kind: "email_change",
        to: "alice@example.com",
        email: "alice@example.com",
        newEmail: "alice.new@example.com",
        confirmationUrl: `http://localhost:9999/verify?token=rt2&type=email_change&redirect_to=${SITE}`,
        token: "000002",
      },
    ]);
    expect(liveTokens().map((t) => [t.type, t.relatesTo, t.tokenHash, t.otpHash])).toEqual([
      ["email_change_token_new", "alice.new@example.com", "h(rt1)", "h(alice.new@example.com000001)"],
      ["email_change_token_current", "alice@example.com", "h(rt2)", "h(alice@example.com000002)"],
    ]);
  });

  it("mails only the new address when secure change is off", async () => {
    const { deps, request } = setUp({
      mailer: { ...defaultAuthSettings().mailer, secureEmailChange: false },
    });
    await request("alice.new@example.com");
    expect(deps.mailer.sent.map((m) => m.to)).toEqual(["alice.new@example.com"]);
  });

  it("mails only the new address of a user without a current one (anonymous)", async () => {
    const { deps, request } = setUp(
      {},
      { email: null, emailConfirmedAt: null, isAnonymous: true, appMetadata: {} },
    );
    await request("anon@example.com");
    expect(deps.mailer.sent.map((m) => [m.to, m.email])).toEqual([["anon@example.com", "anon@example.com"]]);
  });

  it("refuses an address another user has, sending nothing", async () => {
    const { deps, request, stored } = setUp();
    expect(await request("bob@example.com")).toMatchObject(
      failure("email_exists", "A user with this email address has already been registered"),
    );
    expect(stored().emailChange).toBeNull();
    expect(deps.mailer.sent).toEqual([]);
  });

  it("changes nothing for the current address", async () => {
    const { deps, request, stored } = setUp();
    const before = stored();
    expect(await request("alice@example.com")).toMatchObject({ ok: true, value: before });
    expect(deps.mailer.sent).toEqual([]);
  });

  it("refuses a new request within SMTP_MAX_FREQUENCY and accepts it after", async () => {
    const { deps, request, stored } = setUp();
    await request("alice.new@example.com");
    deps.clock.advance(600_000);
    expect(await request("alice.other@example.com")).toMatchObject(
      failure(
        "over_email_send_rate_limit",
        "For security purposes, you can only request this after 300 seconds.",
      ),
    );
    expect(stored().emailChange).toBe("alice.new@example.com");
    deps.clock.advance(300_000);
    expect(await request("alice.other@example.com")).toMatchObject({ ok: true });
    expect(stored().emailChange).toBe("alice.other@example.com");
  });

  it("applies the change at once under mailer autoconfirm", async () => {
    const settings = defaultAuthSettings();
    const { deps, request, stored, liveTokens } = setUp({
      signup: { ...settings.signup, mailerAutoconfirm: true },
    });
    await request("alice.new@example.com");
    expect(stored()).toMatchObject({
      email: "alice.new@example.com",
      emailChange: null,
      emailConfirmedAt: deps.clock.now(),
    });
    expect([...deps.store.tables.identities.values()][0]?.identityData.email).toBe("alice.new@example.com");
    expect(deps.mailer.sent).toEqual([]);
    expect(liveTokens()).toEqual([]);
  });

  it("is refused by the hourly email cap, counting each mail, leaving nothing pending", async () => {
    const mailer = { ...defaultAuthSettings().mailer, rateLimitPerHour: 1 };
    const { deps, request, stored, liveTokens } = setUp({ mailer });
    rollingBack(deps.store);
    expect(await request("alice.new@example.com")).toMatchObject(
      failure("over_email_send_rate_limit", "email rate limit exceeded"),
    );
    // Both mails are counted before either is sent: the second's refusal stops both.
    expect(deps.mailer.sent).toHaveLength(0);
    expect(stored().emailChange).toBeNull();
    expect(liveTokens()).toEqual([]);
  });

  it("answers a mail the server refused as the error it is, leaving nothing pending", async () => {
    const { deps, request, stored, liveTokens } = setUp();
    rollingBack(deps.store);
    deps.mailer.send = async () => {
      throw failures.emailSendFailed("email change");
    };
    expect(await request("alice.new@example.com")).toMatchObject(
      failure("email_send_failed", "Error sending email change email"),
    );
    expect(stored()).toMatchObject({ emailChange: null, emailChangeSentAt: null });
    expect(liveTokens()).toEqual([]);
  });
});

describe("confirmEmailChange", () => {
  it("needs both addresses under secure change: new first, then current", async () => {
    const { deps, request, follow, mailTo, stored, liveTokens } = setUp();
    await request("alice.new@example.com");
    expect(await follow(mailTo("alice.new@example.com"))).toEqual({
      ok: true,
      value: { kind: "pending", message: PENDING },
    });
    expect(stored()).toMatchObject({ email: "alice@example.com", emailChange: "alice.new@example.com" });
    expect(deps.store.tables.audit).toEqual([]);

    const done = await follow(mailTo("alice@example.com"));
    expect(done).toMatchObject({
      ok: true,
      value: { kind: "done", user: { email: "alice.new@example.com" } },
    });
    expect(stored()).toMatchObject({
      email: "alice.new@example.com",
      emailChange: null,
      emailChangeSentAt: null,
      emailConfirmedAt: new Date("2026-01-01T00:00:00Z"),
    });
    expect([...deps.store.tables.identities.values()].map((i) => i.identityData)).toEqual([
      { sub: ID, email: "alice.new@example.com", email_verified: true, phone_verified: false },
    ]);
    expect(deps.store.tables.audit).toEqual([
      { action: "user_modified", actorId: ID, actorUsername: "alice.new@example.com", at: deps.clock.now() },
    ]);
    expect(liveTokens()).toEqual([]);
  });

  it("needs both addresses under secure change: current first (by code), then new", async () => {
    const { request, typeCode, mailTo, stored } = setUp();
    await request("alice.new@example.com");
    expect(await typeCode(mailTo("alice@example.com"))).toMatchObject({
      ok: true,
      value: { kind: "pending" },
    });
    expect(await typeCode(mailTo("alice.new@example.com"))).toMatchObject({
      ok: true,
      value: { kind: "done" },
    });
    expect(stored().email).toBe("alice.new@example.com");
  });

  it("applies the change on the only confirmation when secure change is off", async () => {
    const { request, follow, mailTo, stored } = setUp({
      mailer: { ...defaultAuthSettings().mailer, secureEmailChange: false },
    });
    await request("alice.new@example.com");
    expect(await follow(mailTo("alice.new@example.com"))).toMatchObject({
      ok: true,
      value: { kind: "done" },
    });
    expect(stored().email).toBe("alice.new@example.com");
  });

  it("does not wait for a current-address token left by an earlier secure request", async () => {
    const { deps, request, follow, mailTo, stored } = setUp();
    await request("alice.new@example.com");
    deps.settings = { ...deps.settings, mailer: { ...deps.settings.mailer, secureEmailChange: false } };
    deps.clock.advance(900_000);
    await request("alice.other@example.com");
    expect(await follow(mailTo("alice.other@example.com"))).toMatchObject({
      ok: true,
      value: { kind: "done" },
    });
    expect(stored().email).toBe("alice.other@example.com");
  });

  it("makes an anonymous user permanent on the single confirmation, with a new email identity", async () => {
    const { deps, request, follow, mailTo, stored } = setUp(
      {},
      { email: null, emailConfirmedAt: null, isAnonymous: true, appMetadata: {} },
    );
    await request("anon@example.com");
    expect(await follow(mailTo("anon@example.com"))).toMatchObject({ ok: true, value: { kind: "done" } });
    expect(stored()).toMatchObject({
      email: "anon@example.com",
      emailConfirmedAt: deps.clock.now(),
      isAnonymous: false,
      appMetadata: { provider: "email", providers: ["email"] },
    });
    expect([...deps.store.tables.identities.values()]).toEqual([
      expect.objectContaining({
        provider: "email",
        identityData: { sub: ID, email: "anon@example.com", email_verified: true, phone_verified: false },
      }),
    ]);
  });

  it("refuses the last confirmation when the address was taken meanwhile", async () => {
    const { deps, request, follow, mailTo, stored } = setUp();
    await request("alice.new@example.com");
    await follow(mailTo("alice.new@example.com"));
    const bob = deps.store.tables.users.get(OTHER) as User;
    deps.store.tables.users.set(OTHER, { ...bob, email: "alice.new@example.com" });
    expect(await follow(mailTo("alice@example.com"))).toMatchObject(
      failure("email_exists", "A user with this email address has already been registered"),
    );
    expect(stored().email).toBe("alice@example.com");
  });

  it("refuses a token of a change that is no longer pending", async () => {
    const { deps, request, stored } = setUp();
    await request("alice.new@example.com");
    deps.store.tables.users.set(ID, { ...stored(), emailChange: null });
    const result = await deps.store.transaction(async (repos) => {
      const consumed = await repos.oneTimeTokens.consumeByTokenHash("h(rt1)", CHANGE_TYPES);
      if (consumed === null) throw new Error("token gone");
      return confirmEmailChange(deps, repos, stored(), consumed, deps.clock.now());
    });
    expect(result).toMatchObject(failure("otp_expired", "Token has expired or is invalid"));
  });
});

describe("resendEmailChange", () => {
  it("answers {} and sends nothing for an unknown address or nothing pending", async () => {
    const { deps } = setUp();
    expect(await resendEmailChange(deps, { email: "nobody@example.com" })).toEqual({ ok: true, value: {} });
    expect(await resendEmailChange(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toEqual([]);
  });

  it("sends both confirmations again after the gap, the old links no longer working", async () => {
    const { deps, request, mailTo, follow } = setUp();
    await request("alice.new@example.com");
    const firstLink = mailTo("alice.new@example.com");
    expect(await resendEmailChange(deps, { email: "alice@example.com" })).toMatchObject(
      failure(
        "over_email_send_rate_limit",
        "For security purposes, you can only request this after 900 seconds.",
      ),
    );
    deps.clock.advance(900_000);
    expect(
      await resendEmailChange(deps, { email: "ALICE@example.com", redirectTo: "https://evil.example/" }),
    ).toEqual({
      ok: true,
      value: {},
    });
    expect(deps.mailer.sent.map((m) => m.to)).toEqual([
      "alice.new@example.com",
      "alice@example.com",
      "alice.new@example.com",
      "alice@example.com",
    ]);
    expect(deps.mailer.sent[2]?.confirmationUrl).toContain(`redirect_to=${SITE}`);
    await expect(follow(firstLink)).rejects.toThrow("the link's token is not live");
    expect(await follow(mailTo("alice.new@example.com"))).toMatchObject({
      ok: true,
      value: { kind: "pending" },
    });
  });
});
