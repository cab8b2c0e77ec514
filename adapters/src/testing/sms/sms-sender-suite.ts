import { AuthError } from "@authsvc/core/kernel";
import type { SmsSender } from "@authsvc/core/messaging";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SmsGatewayFake } from "./fake-server.js";

export interface SmsGatewayCase {
  /** The name the error messages use (`Error sending SMS: <gateway>: …`). */
  readonly gateway: string;
  /** Starts the gateway's fake with the case's credentials. */
  start(): Promise<SmsGatewayFake>;
  /** The adapter under test pointed at `baseUrl`; `wrongSecret` replaces its secret credential. */
  sender(options: { baseUrl: string; wrongSecret?: string; timeoutMs?: number }): SmsSender;
  /** The right secret, which no error may reveal. */
  readonly secret: string;
  /** The recipient and sender as the gateway receives them, for `to` digits. */
  received(to: string): { to: string; from: string };
  /** What the error says after a wrong secret, an invalid recipient, `failNext("rejected" | "server_error")`. */
  readonly messages: { wrongSecret: string; invalidRecipient: string; rejected: string; serverError: string };
}

/** Awaits a promise that must reject with `sms_send_failed`, and returns the error. */
export async function smsFailure(promise: Promise<unknown>): Promise<AuthError> {
  const error: unknown = await promise.then(
    () => new Error("expected the send to fail"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect(error).toMatchObject({ failure: "smsSendFailed", code: "sms_send_failed" });
  return error as AuthError;
}

/** What every gateway adapter must do against its fake: deliver, and fail cleanly in each way. */
export function describeSmsGateway(c: SmsGatewayCase): void {
  describe(`${c.gateway} against its fake`, () => {
    let fake: SmsGatewayFake;
    beforeEach(async () => {
      fake = await c.start();
    });
    afterEach(() => fake.close());

    const prefix = `Error sending SMS: ${c.gateway}: `;

    it("delivers the text to the recipient from the configured sender and answers the gateway's id", async () => {
      const sent = await c.sender({ baseUrl: fake.url }).send("15551234567", "Your code is 123456");
      expect(fake.messages).toEqual([
        { id: sent.messageId, ...c.received("15551234567"), body: "Your code is 123456" },
      ]);
      expect(sent.messageId).not.toBe("");
    });

    it("fails with the gateway's message, never a credential, when the secret is wrong", async () => {
      const wrongSecret = "wrong-secret-0123456789";
      const error = await smsFailure(c.sender({ baseUrl: fake.url, wrongSecret }).send("15551234567", "hi"));
      expect(error.message).toBe(prefix + c.messages.wrongSecret);
      expect(error.message).not.toContain(wrongSecret);
      expect(error.message).not.toContain(c.secret);
      expect(fake.messages).toEqual([]);
    });

    it("fails with the gateway's message when it refuses the recipient", async () => {
      const error = await smsFailure(c.sender({ baseUrl: fake.url }).send("12", "hi"));
      expect(error.message).toBe(prefix + c.messages.invalidRecipient);
      expect(fake.messages).toEqual([]);
    });

    it("fails with the gateway's message when it rejects the message, and the next send goes through", async () => {
      const sender = c.sender({ baseUrl: fake.url });
      fake.failNext("rejected");
      const error = await smsFailure(sender.send("15551234567", "first"));
      expect(error.message).toBe(prefix + c.messages.rejected);
      await sender.send("15551234567", "second");
      expect(fake.messages.map((m) => m.body)).toEqual(["second"]);
    });

    it("fails on a server error of the gateway", async () => {
      fake.failNext("server_error");
      const error = await smsFailure(c.sender({ baseUrl: fake.url }).send("15551234567", "hi"));
      expect(error.message).toBe(prefix + c.messages.serverError);
    });

    it("fails when the gateway does not answer in time", async () => {
      fake.failNext("hang");
      const error = await smsFailure(
        c.sender({ baseUrl: fake.url, timeoutMs: 200 }).send("15551234567", "hi"),
      );
      expect(error.message.startsWith(prefix)).toBe(true);
    });

    it("fails when the gateway drops the connection", async () => {
      fake.failNext("disconnect");
      const error = await smsFailure(c.sender({ baseUrl: fake.url }).send("15551234567", "hi"));
      expect(error.message.startsWith(prefix)).toBe(true);
    });

    it("fails when nothing listens at the base URL", async () => {
      const closed = await c.start();
      await closed.close();
      const error = await smsFailure(c.sender({ baseUrl: closed.url }).send("15551234567", "hi"));
      expect(error.message).toMatch(new RegExp(`^${prefix}.*ECONNREFUSED`));
    });
  });
}
