import { failures } from "@authsvc/core";
import type { HookInputs } from "@authsvc/core/hooks";
import type { AuthError } from "@authsvc/core/kernel";
import { aUser, fakeHooks } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { hookMailer } from "./hook-mailer.js";
import { hookSmsSender } from "./hook-sms-sender.js";

const ok = (value: Record<string, unknown>) => ({ ok: true as const, value });
const err = (error: AuthError) => ({ ok: false as const, error });
const user = aUser({ email: "old@example.com" });
const siteUrl = "https://app.example.com";

describe("hookMailer", () => {
  it("hands the mail's user, code, link token and redirect to the send-email hook", async () => {
    const hooks = fakeHooks({ send_email: () => ok({}) });
    await hookMailer({ hooks: hooks.dispatcher, siteUrl }).send({
      kind: "magic_link",
      to: "old@example.com",
      token: "123456",
      tokenHash: "pkce_abc",
      redirectTo: "https://app.example.com/welcome",
      confirmationUrl: "ignored",
      user,
    });
    expect(hooks.calls[0]?.input).toEqual({
      user,
      email_data: {
        token: "123456",
        token_hash: "pkce_abc",
        redirect_to: "https://app.example.com/welcome",
        email_action_type: "magiclink",
        site_url: siteUrl,
        token_new: "",
        token_hash_new: "",
        old_email: "",
        old_phone: "",
        provider: "",
        factor_type: "",
      },
    });
  });

  it("pairs a secure email change's codes and hashes as the reference does, one call per address", async () => {
    const hooks = fakeHooks({ send_email: () => ok({}) });
    const mailer = hookMailer({ hooks: hooks.dispatcher, siteUrl });
    const change = {
      kind: "email_change" as const,
      newEmail: "new@example.com",
      email: "old@example.com",
      user,
    };
    await mailer.send({ ...change, to: "old@example.com", token: "111111", tokenHash: "h-old" });
    await mailer.send({ ...change, to: "new@example.com", token: "222222", tokenHash: "h-new" });
    const data = hooks.calls.map((c) => (c.input as HookInputs["send_email"]).email_data);
    expect(
      data.map(({ token, token_hash, token_new, token_hash_new }) => [
        token,
        token_hash,
        token_new,
        token_hash_new,
      ]),
    ).toEqual([
      ["111111", "", "", "h-old"],
      ["", "h-new", "222222", ""],
    ]);
    expect(data.every((d) => d.email_action_type === "email_change")).toBe(true);
  });

  it("rejects with the hook's failure, so the outbox withdraws the code and answers it", async () => {
    const hooks = fakeHooks({ send_email: () => err(failures.hookError(503, "Mail provider down")) });
    await expect(
      hookMailer({ hooks: hooks.dispatcher, siteUrl }).send({ kind: "recovery", to: "a@example.com", user }),
    ).rejects.toMatchObject({ httpStatus: 503, message: "Mail provider down" });
  });
});

describe("hookSmsSender", () => {
  it("hands the code, number and user to the send-SMS hook, and its refusal back", async () => {
    const hooks = fakeHooks({ send_sms: () => ok({}) });
    const sent = await hookSmsSender({ hooks: hooks.dispatcher }).send("15551234567", "Your code is 123456", {
      otp: "123456",
      user,
    });
    expect(sent).toEqual({ messageId: "" });
    expect(hooks.calls[0]?.input).toEqual({ user, sms: { otp: "123456", phone: "15551234567" } });
    const refusing = fakeHooks({ send_sms: () => err(failures.hookError(400, "No SMS to that country")) });
    await expect(
      hookSmsSender({ hooks: refusing.dispatcher }).send("15551234567", "x", {
        otp: "1",
        user,
        smsType: "mfa",
      }),
    ).rejects.toMatchObject({ message: "No SMS to that country" });
    expect(refusing.calls[0]?.input).toMatchObject({ sms: { sms_type: "mfa" } });
  });
});
