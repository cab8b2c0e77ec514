import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { breakMailer } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { type ResendInput, resend } from "./resend.js";

const ID = "11111111-1111-4111-8111-111111111111";

function withUser(fields: Partial<User> = {}) {
  const deps = fakeDeps();
  rollingBack(deps.store);
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date(0),
    ...fields,
  });
  deps.store.tables.users.set(ID, user);
  return deps;
}
const invalid = (message: string) => ({
  ok: false,
  error: expect.objectContaining({ message }),
});

describe("resend input", () => {
  it.each<[ResendInput, string]>([
    [
      { type: "recovery", email: "a@x.io" },
      "Missing one of these types: signup, email_change, sms, phone_change",
    ],
    [{ type: "signup" }, "Type provided requires an email address"],
    [{ type: "email_change", phone: "15551234567" }, "Type provided requires an email address"],
    [{ type: "sms", email: "a@x.io" }, "Type provided requires a phone number"],
    [{ type: "phone_change" }, "Type provided requires a phone number"],
  ])("refuses %j", async (input, message) => {
    expect(await resend(withUser(), input)).toEqual(invalid(message));
  });
});

describe("resend signup", () => {
  it("mails an unconfirmed user a new confirmation, once per SMTP_MAX_FREQUENCY", async () => {
    const deps = withUser({ email: "a@x.io" });
    expect(await resend(deps, { type: "signup", email: "A@x.io" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toMatchObject([{ kind: "confirmation", to: "a@x.io" }]);
    expect(deps.mailer.sent[0]?.confirmationUrl).toContain("type=signup");
    expect(deps.store.tables.users.get(ID)?.confirmationSentAt).toEqual(deps.clock.now());
    deps.clock.advance(1_000);
    expect(await resend(deps, { type: "signup", email: "a@x.io" })).toMatchObject({
      ok: false,
      error: { message: "For security purposes, you can only request this after 899 seconds." },
    });
  });

  it("answers {} without sending for a confirmed or unknown address", async () => {
    const deps = withUser({ email: "a@x.io", emailConfirmedAt: new Date(0) });
    expect(await resend(deps, { type: "signup", email: "a@x.io" })).toEqual({ ok: true, value: {} });
    expect(await resend(deps, { type: "signup", email: "b@x.io" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toEqual([]);
  });

  it("leaves the previous state when the mail is refused, so asking again works", async () => {
    const deps = withUser({ email: "a@x.io" });
    const repair = breakMailer(deps.mailer);
    // Mail is delivered after the answer: the failure is counted, not answered.
    expect(await resend(deps, { type: "signup", email: "a@x.io" })).toEqual({ ok: true, value: {} });
    await deps.deliveries.idle();
    expect(deps.deliveries.failures).toMatchObject([{ code: "email_send_failed" }]);
    expect(deps.store.tables.users.get(ID)?.confirmationSentAt).toBeNull();
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    repair();
    expect((await resend(deps, { type: "signup", email: "a@x.io" })).ok).toBe(true);
  });
});

describe("resend sms", () => {
  it("texts an unconfirmed phone a new code and answers its message id", async () => {
    const deps = withUser({ phone: "15551234567" });
    expect(await resend(deps, { type: "sms", phone: "+15551234567" })).toEqual({
      ok: true,
      value: { messageId: "sms-1" },
    });
    expect(await resend(deps, { type: "sms", phone: "+15551234567" })).toMatchObject({
      ok: false,
      error: { code: "over_sms_send_rate_limit" },
    });
  });

  it("answers {} for a confirmed phone", async () => {
    const deps = withUser({ phone: "15551234567", phoneConfirmedAt: new Date(0) });
    expect(await resend(deps, { type: "sms", phone: "15551234567" })).toEqual({ ok: true, value: {} });
    expect(deps.sms.sent).toEqual([]);
  });
});

describe("resend pending changes", () => {
  it("re-mails a pending email change", async () => {
    const deps = withUser({ email: "a@x.io", emailConfirmedAt: new Date(0), emailChange: "b@x.io" });
    expect(await resend(deps, { type: "email_change", email: "a@x.io" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent.map((m) => [m.kind, m.to])).toEqual([
      ["email_change", "b@x.io"],
      ["email_change", "a@x.io"],
    ]);
  });

  it("re-texts a pending phone change", async () => {
    const deps = withUser({ phone: "15551234567", phoneChange: "15557654321" });
    expect(await resend(deps, { type: "phone_change", phone: "15551234567" })).toEqual({
      ok: true,
      value: { messageId: "sms-1" },
    });
    expect(deps.sms.sent.map((s) => s.to)).toEqual(["15557654321"]);
  });
});
