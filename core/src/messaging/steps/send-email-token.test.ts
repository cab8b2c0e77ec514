import { describe, expect, it } from "vitest";
import { blankUser } from "../../accounts/index.js";
import { fakeDeps } from "../../testing/index.js";
import { breakMailer, linkTokenOf } from "../../testing/messaging/message-helpers.js";
import { sending } from "../../testing/verification/sending.js";
import { type SendEmailTokenInput, sendEmailToken } from "./send-email-token.js";

const now = new Date("2026-01-01T00:00:00Z");
const user = blankUser({
  id: "u1",
  aud: "authenticated",
  role: "authenticated",
  createdAt: now,
  email: "a@x.io",
});
const input: Omit<SendEmailTokenInput, "outbox"> = {
  user,
  tokenType: "recovery_token",
  mailKind: "recovery",
  verifyType: "recovery",
  to: "A@X.io",
  redirectTo: "https://app.example.com/welcome?x=1&y=2",
  now,
};

/** `sendEmailToken` in a use case's transaction, its mail sent once that has committed. */
const send = (deps: ReturnType<typeof fakeDeps>, given: Omit<SendEmailTokenInput, "outbox">) =>
  sending(deps, (repos, outbox) => sendEmailToken(deps, repos, { ...given, outbox }));

describe("sendEmailToken", () => {
  it("mails a link and a code, storing only their hashes", async () => {
    const deps = fakeDeps({ mailer: { ...fakeDeps().settings.mailer, otpLength: 8 } });
    const result = await send(deps, input);
    if (!result.ok) throw result.error;
    const { actionLink, otp, hashedToken } = result.value;
    expect(otp).toMatch(/^\d{8}$/);
    expect(actionLink).toBe(
      `http://localhost:9999/verify?token=${hashedToken}&type=recovery` +
        "&redirect_to=https%3A%2F%2Fapp.example.com%2Fwelcome%3Fx%3D1%26y%3D2",
    );
    expect(deps.mailer.sent).toEqual([
      { kind: "recovery", to: "A@X.io", email: "a@x.io", confirmationUrl: actionLink, token: otp },
    ]);
    expect(linkTokenOf(deps.mailer.sent[0])).toBe(hashedToken);
    const stored = [...deps.store.tables.oneTimeTokens.values()];
    expect(stored).toEqual([
      {
        id: expect.any(String),
        userId: "u1",
        type: "recovery_token",
        tokenHash: deps.tokens.hash(hashedToken),
        otpHash: deps.tokens.hash(`a@x.io${otp}`),
        relatesTo: "a@x.io",
        createdAt: now,
      },
    ]);
    expect(JSON.stringify(stored)).not.toContain(`"${otp}"`);
    expect(JSON.stringify(stored)).not.toContain(`"${hashedToken}"`);
  });

  it("uses the URL path configured for the kind of mail and passes the new address", async () => {
    const deps = fakeDeps();
    const mailer = {
      ...deps.settings.mailer,
      urlPaths: { ...deps.settings.mailer.urlPaths, email_change: "/x/ec" },
    };
    const custom = { ...deps, settings: { ...deps.settings, mailer } };
    const result = await sending(deps, (repos, outbox) =>
      sendEmailToken(custom, repos, {
        ...input,
        tokenType: "email_change_token_new",
        mailKind: "email_change",
        verifyType: "email_change",
        to: "new@x.io",
        newEmail: "new@x.io",
        outbox,
      }),
    );
    expect(result.ok && result.value.actionLink).toMatch(
      /^http:\/\/localhost:9999\/x\/ec\?token=.+&type=email_change&/,
    );
    expect(deps.mailer.sent[0]).toMatchObject({ to: "new@x.io", email: "a@x.io", newEmail: "new@x.io" });
  });

  it("replaces the user's previous token of the type", async () => {
    const deps = fakeDeps();
    await send(deps, input);
    const second = await send(deps, input);
    if (!second.ok) throw second.error;
    expect([...deps.store.tables.oneTimeTokens.values()].map((t) => t.tokenHash)).toEqual([
      deps.tokens.hash(second.value.hashedToken),
    ]);
  });

  it("stores without sending for generate_link, counting nothing", async () => {
    const deps = fakeDeps({ mailer: { ...fakeDeps().settings.mailer, rateLimitPerHour: 0 } });
    const result = await send(deps, { ...input, send: false });
    expect(result.ok).toBe(true);
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.store.tables.oneTimeTokens.size).toBe(1);
  });

  it("refuses beyond the hourly cap with 429, removing the token it stored, and allows again next hour", async () => {
    const deps = fakeDeps({ mailer: { ...fakeDeps().settings.mailer, rateLimitPerHour: 2 } });
    expect((await send(deps, input)).ok).toBe(true);
    expect((await send(deps, { ...input, user: { ...user, id: "u2" } })).ok).toBe(true);
    deps.store.tables.oneTimeTokens.clear();
    expect(await send(deps, input)).toMatchObject({
      ok: false,
      error: { code: "over_email_send_rate_limit", message: "email rate limit exceeded" },
    });
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    expect(deps.mailer.sent).toHaveLength(2);
    const nextHour = new Date(now.getTime() + 3_600_000);
    expect((await send(deps, { ...input, now: nextHour })).ok).toBe(true);
  });

  it("does not count sends under mailer autoconfirm", async () => {
    const base = fakeDeps();
    const deps = fakeDeps({
      mailer: { ...base.settings.mailer, rateLimitPerHour: 0 },
      signup: { ...base.settings.signup, mailerAutoconfirm: true },
    });
    expect((await send(deps, input)).ok).toBe(true);
    expect(deps.mailer.sent).toHaveLength(1);
  });

  it("answers the mailer's error when the mail cannot be sent, removing the token", async () => {
    const deps = fakeDeps();
    breakMailer(deps.mailer);
    expect(await send(deps, input)).toMatchObject({ ok: false, error: { code: "email_send_failed" } });
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
  });
});
