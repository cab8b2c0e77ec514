import type { AddressInfo } from "node:net";
import type { Mail, MailKind } from "@authsvc/core/messaging";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink } from "../testing/mail/smtp-sink.js";
import { type SmtpMailerOptions, smtpMailer } from "./smtp-mailer.js";

/**
 * TLS towards the mail server: with TLS required, a server that does not offer STARTTLS gets nothing,
 * and the warning says why; a certificate that does not verify is never sent to in clear either.
 */
const SUBJECTS = {
  confirmation: "confirm",
  invite: "invited",
  recovery: "reset",
  magic_link: "magic link",
  email_change: "email change",
  reauthentication: "reauthenticate",
  password_changed_notification: "password changed notification",
  email_changed_notification: "email changed notification",
  phone_changed_notification: "phone changed notification",
  identity_linked_notification: "identity linked notification",
  identity_unlinked_notification: "identity unlinked notification",
  mfa_factor_enrolled_notification: "mfa factor enrolled notification",
  mfa_factor_unenrolled_notification: "mfa factor unenrolled notification",
} satisfies Record<MailKind, string>;
const mail: Mail = {
  kind: "recovery",
  to: "ada@example.com",
  confirmationUrl: "https://auth.example.com/verify?token=t&type=recovery",
  token: "424242",
};

let plain: Awaited<ReturnType<typeof startSmtpSink>>;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  plain = await startSmtpSink();
});
afterAll(async () => {
  for (const close of closers) await close();
  await plain?.close();
});

function mailerWith(overrides: Partial<SmtpMailerOptions>) {
  const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
  const mailer = smtpMailer({
    host: "127.0.0.1",
    port: plain.port,
    senderName: "Example",
    adminEmail: "auth@example.com",
    siteUrl: "https://app.example.com",
    subjects: SUBJECTS,
    warn: (fields, msg) => warnings.push({ fields, msg }),
    timeoutMs: 5_000,
    ...overrides,
  });
  closers.push(() => mailer.close());
  return { mailer, warnings };
}

const failureOf = (send: Promise<void>) =>
  send.then(
    () => expect.unreachable("the send should have failed"),
    (error: unknown) => error as Error,
  );

describe("smtpMailer: TLS", () => {
  it("with TLS required, refuses a server that does not offer STARTTLS: nothing sent, the reason warned", async () => {
    const { mailer, warnings } = mailerWith({ requireTls: true });
    const error = await failureOf(mailer.send(mail));
    expect(error).toMatchObject({ code: "email_send_failed", message: "Error sending recovery email" });
    expect(error.cause).toMatchObject({ code: "ETLS" });
    expect(warnings).toEqual([
      {
        fields: expect.objectContaining({ mail_kind: "recovery", smtp_error_code: "ETLS" }),
        msg: expect.stringContaining("STARTTLS not offered while TLS is required"),
      },
    ]);
    expect(JSON.stringify(warnings)).not.toContain("ada@example.com");
    expect(plain.mails).toEqual([]);
    // The same server without the requirement takes the mail in clear, as before.
    await mailerWith({}).mailer.send(mail);
    expect((await plain.next(mail.to)).text).toContain("424242");
  });

  it("upgrades when the server offers STARTTLS, so a certificate that does not verify is refused, required or not", async () => {
    // smtp-server's built-in certificate is self-signed: no CA vouches for it.
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      logger: false,
      disableReverseLookup: true,
      onData(stream, session, callback) {
        received.push(session.envelope.rcptTo.map((r) => r.address).join(","));
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve(undefined))));
    const port = (server.server.address() as AddressInfo).port;
    for (const requireTls of [false, true]) {
      const { mailer, warnings } = mailerWith({ port, requireTls });
      const error = await failureOf(mailer.send(mail));
      expect(error).toMatchObject({ code: "email_send_failed" });
      expect(warnings.map((w) => w.fields.smtp_error_code)).toEqual([(error.cause as { code: string }).code]);
      expect(String(warnings[0]?.fields.smtp_error)).toMatch(/certificate/i);
    }
    expect(received).toEqual([]);
  });
});
