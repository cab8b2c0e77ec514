import { AuthError } from "@authsvc/core/kernel";
import type { Mail, MailKind } from "@authsvc/core/messaging";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiMailer, type MailApiProvider } from "../../mail/mail-api.js";
import { KIND_NAMES } from "../../mail/templates.js";
import type { MailApiFake } from "./fake-api.js";
import { REFUSED_RECIPIENT } from "./providers.js";

export interface MailApiCase {
  /** The provider's name as log lines and errors give it. */
  readonly name: string;
  /** Starts the provider's fake with the case's credentials. */
  start(): Promise<MailApiFake>;
  /** The adapter pointed at `baseUrl`; `wrongSecret` replaces its secret credential. */
  provider(options: { baseUrl: string; wrongSecret?: string }): MailApiProvider;
  /** The right secret, which no log line or error may reveal. */
  readonly secret: string;
  /** The provider's words after a wrong secret, and for `REFUSED_RECIPIENT`, as the warning carries them. */
  readonly messages: { readonly wrongSecret: string; readonly refused: string };
}

/** A subject for every kind there is; the confirmation's as the configuration's default. */
export const TEST_SUBJECTS = Object.fromEntries(
  Object.keys(KIND_NAMES).map((kind) => [
    kind,
    kind === "confirmation" ? "Confirm Your Signup" : `About ${kind}`,
  ]),
) as Record<MailKind, string>;

const MAIL: Mail = {
  kind: "confirmation",
  to: "ann@example.com",
  email: "ann@example.com",
  confirmationUrl: "https://auth.example.com/verify?token=link-token-abc&type=signup",
  token: "482913",
};

interface Warning {
  readonly fields: Record<string, unknown>;
  readonly msg: string;
}

/** Awaits a send that must fail with `email_send_failed`, and returns the error. */
async function sendFailure(promise: Promise<unknown>): Promise<AuthError> {
  const error: unknown = await promise.then(
    () => new Error("expected the send to fail"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect(error).toMatchObject({ code: "email_send_failed", message: "Error sending confirmation email" });
  return error as AuthError;
}

/**
 * What every mail API adapter must do against its provider's fake: deliver the rendered mail, refuse
 * at once what will not pass, try again what may (a rate limit after its `Retry-After`, a server
 * error, a dropped connection), and never let a credential or the address into a log line.
 */
export function describeMailApi(c: MailApiCase): void {
  describe(`${c.name} mail API against its fake`, () => {
    let fake: MailApiFake;
    let warnings: Warning[];
    beforeEach(async () => {
      fake = await c.start();
      warnings = [];
    });
    afterEach(() => fake.close());

    const mailer = (options: { wrongSecret?: string; attempts?: number; timeoutMs?: number } = {}) =>
      apiMailer({
        provider: c.provider({
          baseUrl: fake.url,
          ...(options.wrongSecret ? { wrongSecret: options.wrongSecret } : {}),
        }),
        senderName: "Example App",
        adminEmail: "auth@example.com",
        siteUrl: "https://app.example.com",
        subjects: TEST_SUBJECTS,
        warn: (fields, msg) => warnings.push({ fields, msg }),
        backoffMs: 1,
        ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      });

    /** No warning, no error holds the secret, the recipient's address or the mail's code. */
    const expectNothingLeaked = (error?: AuthError) => {
      const text =
        JSON.stringify(warnings) + String(error?.message) + String((error?.cause as Error)?.message);
      for (const secret of [c.secret, MAIL.to, MAIL.token ?? "", "link-token-abc"])
        expect(text).not.toContain(secret);
    };

    it("delivers the rendered mail from the configured sender to the recipient", async () => {
      await mailer().send(MAIL);
      expect(fake.mails).toHaveLength(1);
      const [mail] = fake.mails;
      expect(mail).toMatchObject({ from: "Example App <auth@example.com>", to: "ann@example.com" });
      expect(mail?.subject).toBe("Confirm Your Signup");
      expect(mail?.text).toContain("482913");
      expect(mail?.text).toContain(MAIL.confirmationUrl);
      expect(mail?.html).toContain("Confirm your signup");
      expect(mail?.html).toContain("token=link-token-abc&amp;type=signup");
      expect(warnings).toEqual([]);
    });

    it("fails at once, in the provider's words, when the credential is wrong", async () => {
      const error = await sendFailure(mailer({ wrongSecret: "wrong-secret-0123456789" }).send(MAIL));
      expect(fake.requests).toHaveLength(1);
      expect(fake.mails).toEqual([]);
      expect(warnings).toEqual([
        {
          fields: expect.objectContaining({
            mail_kind: "confirmation",
            mail_provider: c.name,
            mail_api_error: c.messages.wrongSecret,
            mail_api_attempts: 1,
          }),
          msg: `mail not sent: ${c.name} refused it`,
        },
      ]);
      expect(JSON.stringify(warnings)).not.toContain("wrong-secret-0123456789");
      expectNothingLeaked(error);
    });

    it("fails at once when the provider refuses the message, without the address in the log", async () => {
      await sendFailure(mailer().send({ ...MAIL, to: REFUSED_RECIPIENT }));
      expect(fake.requests).toHaveLength(1);
      expect(warnings).toEqual([
        {
          fields: expect.objectContaining({ mail_api_error: c.messages.refused, mail_api_attempts: 1 }),
          msg: `mail not sent: ${c.name} refused it`,
        },
      ]);
      expect(JSON.stringify(warnings)).not.toContain(REFUSED_RECIPIENT);
    });

    it("waits out a rate limit's Retry-After, then delivers", async () => {
      fake.failNext({ kind: "rateLimited", retryAfter: "1" });
      await mailer().send(MAIL);
      expect(fake.requests).toHaveLength(2);
      expect(fake.mails.map((mail) => mail.to)).toEqual(["ann@example.com"]);
      expect(warnings).toEqual([]);
    });

    it("fails at once when the rate limit lasts longer than a mail may wait", async () => {
      fake.failNext({ kind: "rateLimited", retryAfter: "3600" });
      const error = await sendFailure(mailer().send(MAIL));
      expect(fake.requests).toHaveLength(1);
      expect(fake.mails).toEqual([]);
      expect(warnings[0]?.fields).toMatchObject({
        mail_api_status: 429,
        mail_api_retry_after_ms: 3_600_000,
        mail_api_attempts: 1,
      });
      expectNothingLeaked(error);
    });

    it("tries again after server errors and a dropped connection, and delivers once", async () => {
      fake.failNext({ kind: "serverError" });
      fake.failNext({ kind: "disconnect" });
      await mailer().send(MAIL);
      expect(fake.requests).toHaveLength(3);
      expect(fake.mails).toHaveLength(1);
    });

    it("gives up after the last attempt when the provider stays unavailable", async () => {
      for (let i = 0; i < 3; i++) fake.failNext({ kind: "unavailable" });
      const error = await sendFailure(mailer().send(MAIL));
      expect(fake.requests).toHaveLength(3);
      expect(warnings).toEqual([
        {
          fields: expect.objectContaining({
            mail_provider: c.name,
            mail_api_status: 503,
            mail_api_attempts: 3,
          }),
          msg: `mail not sent: ${c.name} did not accept it after 3 attempt(s)`,
        },
      ]);
      expectNothingLeaked(error);
    });

    it("fails when the provider does not answer in time", async () => {
      fake.failNext({ kind: "hang" });
      await sendFailure(mailer({ attempts: 1, timeoutMs: 300 }).send(MAIL));
      expect(warnings[0]?.fields).toMatchObject({ mail_api_error: "no answer within 300 ms" });
    });
  });
}
