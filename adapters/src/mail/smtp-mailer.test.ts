import { createServer, type Server } from "node:net";
import { AuthError } from "@authsvc/core/kernel";
import type { Mail, MailKind } from "@authsvc/core/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink } from "../testing/mail/smtp-sink.js";
import { startTemplateServer } from "../testing/mail/template-server.js";
import { type SmtpMailerOptions, smtpMailer } from "./smtp-mailer.js";

const SITE = "https://app.example.com";
const link = (type: string) =>
  `https://auth.example.com/verify?token=hash-${type}&type=${type}&redirect_to=${SITE}`;

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let templates: Awaited<ReturnType<typeof startTemplateServer>>;
const mailers: { close(): void }[] = [];
let seq = 0;
const address = (tag: string) => `${tag}-${++seq}@example.com`;

beforeAll(async () => {
  sink = await startSmtpSink({ rejectRecipient: (to) => to.startsWith("nobody") });
  templates = await startTemplateServer({
    "/magic.html": {
      status: 200,
      body: "<p>Hello {{.Email}}: <a href='{{ .ConfirmationURL }}'>in</a> {{ .Token }} at {{ .SiteURL }}</p>",
    },
    "/down.html": { status: 500, body: "oops" },
  });
});
afterAll(async () => {
  for (const mailer of mailers) mailer.close();
  await sink?.close();
  await templates?.close();
});

// The adapter has no default subjects (the configuration's are passed in): these are test values.
const SUBJECTS: Readonly<Record<MailKind, string>> = {
  confirmation: "Example: confirm",
  invite: "Example: invited",
  recovery: "Example: reset",
  magic_link: "Example: magic link",
  email_change: "Example: email change",
  reauthentication: "Example: reauthenticate",
  password_changed_notification: "Example: password changed notification",
  email_changed_notification: "Example: email changed notification",
  phone_changed_notification: "Example: phone changed notification",
  identity_linked_notification: "Example: identity linked notification",
  identity_unlinked_notification: "Example: identity unlinked notification",
  mfa_factor_enrolled_notification: "Example: mfa factor enrolled notification",
  mfa_factor_unenrolled_notification: "Example: mfa factor unenrolled notification",
};

function mailerWith(overrides: Partial<SmtpMailerOptions> = {}) {
  const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
  const mailer = smtpMailer({
    host: sink.host,
    port: sink.port,
    senderName: "Example App",
    adminEmail: "auth@example.com",
    siteUrl: SITE,
    subjects: SUBJECTS,
    warn: (fields, msg) => warnings.push({ fields, msg }),
    ...overrides,
  });
  mailers.push(mailer);
  return { mailer, warnings };
}

async function sendAndReceive(mail: Mail, overrides?: Partial<SmtpMailerOptions>) {
  const { mailer, warnings } = mailerWith(overrides);
  await mailer.send(mail);
  return { received: await sink.next(mail.to), warnings };
}

const sendFailure = (mailer: { send(mail: Mail): Promise<void> }, mail: Mail) =>
  mailer.send(mail).then(
    () => expect.unreachable("the send should have failed"),
    (error: unknown) => error,
  );

describe("smtpMailer: what arrives", () => {
  it.each<[MailKind, string]>([
    ["confirmation", "Example: confirm"],
    ["invite", "Example: invited"],
    ["recovery", "Example: reset"],
    ["magic_link", "Example: magic link"],
    ["email_change", "Example: email change"],
    ["reauthentication", "Example: reauthenticate"],
  ])("%s: From, To, the subject of its kind, a text and an HTML part", async (kind, subject) => {
    const to = address(kind);
    const { received } = await sendAndReceive({ kind, to, confirmationUrl: link(kind), token: "123456" });
    expect(received.from).toBe("auth@example.com");
    expect(received.headers.from).toBe("Example App <auth@example.com>");
    expect(received.to).toEqual([to]);
    expect(received.headers.to).toBe(to);
    expect(received.subject).toBe(subject);
    expect(received.text).toContain("123456");
    expect(received.html).toMatch(/<h2>[^<]+<\/h2>/);
  });

  it("the HTML has a heading and the link (escaped), the text part the link as is and the code", async () => {
    const to = address("signup");
    const url = link("signup");
    const { received } = await sendAndReceive({
      kind: "confirmation",
      to,
      confirmationUrl: url,
      token: "424242",
    });
    expect(received.html).toContain("<h2>Confirm your signup</h2>");
    expect(received.html).toContain(`<a href="${url.replace(/&/g, "&amp;")}">`);
    expect(received.html).toContain("424242");
    expect(received.text).toContain(`\n${url}\n`);
    expect(received.text).toContain("enter the code: 424242");
    expect(received.text).not.toContain("<");
  });

  it("the email change mail states the old and the new address", async () => {
    const to = address("current");
    const { received } = await sendAndReceive({
      kind: "email_change",
      to,
      email: to,
      newEmail: "o'new@example.com",
      confirmationUrl: link("email_change"),
    });
    expect(received.text).toContain(`from ${to} to o'new@example.com`);
    expect(received.html).toContain(`from ${to} to o&#39;new@example.com`);
  });

  it("uses configured subjects, which may use template variables", async () => {
    const to = address("subject");
    const { received } = await sendAndReceive(
      { kind: "recovery", to, confirmationUrl: link("recovery") },
      { subjects: { ...SUBJECTS, recovery: "Reset the password of {{ .Email }} – Ünïcode" } },
    );
    expect(received.subject).toBe(`Reset the password of ${to} – Ünïcode`);
  });

  it("renders a custom template with substituted, escaped values, fetched once for several mails", async () => {
    const { mailer, warnings } = mailerWith({
      siteUrl: "https://app.example.com/?a=1&b=2",
      templates: { magic_link: templates.url("/magic.html") },
    });
    const recipients = [address("custom"), address("custom"), address("custom")];
    for (const to of recipients)
      await mailer.send({ kind: "magic_link", to, confirmationUrl: link("magiclink"), token: "777777" });
    const first = await sink.next(recipients[0] ?? "");
    expect(first.html).toBe(
      `<p>Hello ${recipients[0]}: <a href='${link("magiclink").replace(/&/g, "&amp;")}'>in</a> 777777 at https://app.example.com/?a=1&amp;b=2</p>`,
    );
    // The text part stays the built-in one: a custom template is HTML only.
    expect(first.text).toContain("Your magic link");
    expect(templates.hits("/magic.html")).toBe(1);
    expect(warnings).toEqual([]);
  });

  it("falls back to the default template, with one warning, when the template server fails", async () => {
    const { mailer, warnings } = mailerWith({
      templates: { invite: templates.url("/down.html?token=s3cret") },
    });
    const [a, b] = [address("fallback"), address("fallback")];
    await mailer.send({ kind: "invite", to: a, confirmationUrl: link("invite"), token: "111111" });
    await mailer.send({ kind: "invite", to: b, confirmationUrl: link("invite"), token: "222222" });
    expect((await sink.next(a)).html).toContain("<h2>You have been invited</h2>");
    expect((await sink.next(b)).html).toContain(link("invite").replace(/&/g, "&amp;"));
    expect(templates.hits("/down.html")).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toEqual({ template_url: templates.url("/down.html"), status: 500 });
    expect(JSON.stringify(warnings)).not.toMatch(/s3cret|111111|hash-invite/);
  });
});

describe("smtpMailer: sessions", () => {
  const magicLink = (to: string): Mail => ({
    kind: "magic_link",
    to,
    email: to,
    confirmationUrl: link("magiclink"),
    token: "123456",
    tokenHash: "hash-magiclink",
    redirectTo: SITE,
  });

  it("a burst shares at most maxConnections sessions, which close once idle", async () => {
    // A server of its own, so that only this mailer's sessions are counted.
    const own = await startSmtpSink({ delayMs: 20 });
    try {
      const { mailer } = mailerWith({ port: own.port, maxConnections: 3, timeoutMs: 300 });
      const recipients = Array.from({ length: 12 }, () => address("burst"));
      await Promise.all(recipients.map((to) => mailer.send(magicLink(to))));
      for (const to of recipients) expect((await own.next(to)).to).toEqual([to]);
      expect(own.sessions.opened).toBeGreaterThanOrEqual(1);
      expect(own.sessions.opened).toBeLessThanOrEqual(3);
      // Idle for longer than its idle time (here the 300 ms timeout): every session is closed.
      const idleSince = Date.now();
      while (own.sessions.open > 0 && Date.now() - idleSince < 3_000) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(own.sessions.open).toBe(0);
      expect(Date.now() - idleSince).toBeLessThan(1_500);
      // And the next message opens a session again.
      const later = address("later");
      await mailer.send(magicLink(later));
      expect((await own.next(later)).to).toEqual([later]);
      expect(own.sessions.opened).toBeGreaterThan(1);
    } finally {
      await own.close();
    }
  });
});

describe("smtpMailer: options", () => {
  it("refuses at construction a subject missing for any kind", () => {
    const { magic_link: _, ...withoutMagicLink } = SUBJECTS;
    expect(() => mailerWith({ subjects: withoutMagicLink as Readonly<Record<MailKind, string>> })).toThrow(
      new TypeError("smtpMailer: the magic_link subject is missing"),
    );
  });
});

describe("smtpMailer: failures are email_send_failed", () => {
  const mail = (to: string): Mail => ({
    kind: "recovery",
    to,
    confirmationUrl: link("recovery"),
    token: "999999",
  });

  it("when nothing listens on the SMTP port", async () => {
    const closed = await freePort();
    const { mailer } = mailerWith({ port: closed });
    const error = await sendFailure(mailer, mail(address("down")));
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({
      failure: "emailSendFailed",
      code: "email_send_failed",
      message: "Error sending recovery email",
    });
    expect((error as Error).cause).toMatchObject({ code: "ESOCKET" });
  });

  it("when the server refuses the recipient", async () => {
    const { mailer } = mailerWith();
    const error = await sendFailure(mailer, {
      kind: "magic_link",
      to: "nobody@example.com",
      confirmationUrl: link("magiclink"),
    });
    expect(error).toMatchObject({ code: "email_send_failed", message: "Error sending magic link email" });
    expect((error as Error).cause).toMatchObject({ responseCode: 550 });
  });

  it("when the server refuses the message, and the next send works again", async () => {
    const { mailer } = mailerWith();
    const to = address("refused");
    sink.failNext();
    const error = await sendFailure(mailer, mail(to));
    expect(error).toMatchObject({ code: "email_send_failed" });
    expect((error as Error).cause).toMatchObject({ responseCode: 554 });
    expect(sink.mails.some((m) => m.to.includes(to))).toBe(false);
    await mailer.send(mail(to));
    expect((await sink.next(to)).subject).toBe(SUBJECTS.recovery);
  });

  it("when the server refuses the credentials, with no password in the error", async () => {
    const guarded = await startSmtpSink({ auth: { user: "mailer", pass: "right-pa55" } });
    try {
      const good = mailerWith({ port: guarded.port, user: "mailer", pass: "right-pa55" }).mailer;
      const to = address("authed");
      await good.send(mail(to));
      expect((await guarded.next(to)).subject).toBe(SUBJECTS.recovery);
      const bad = mailerWith({ port: guarded.port, user: "mailer", pass: "wrong-pa55" }).mailer;
      const error = await sendFailure(bad, mail(address("unauthed")));
      expect(error).toMatchObject({ code: "email_send_failed" });
      expect((error as Error).cause).toMatchObject({ code: "EAUTH" });
      const cause = (error as Error).cause as Error;
      expect(JSON.stringify({ ...cause, message: cause.message, stack: cause.stack })).not.toContain(
        "wrong-pa55",
      );
    } finally {
      await guarded.close();
    }
  });

  it("when the server accepts the connection but never greets, after timeoutMs", async () => {
    const silent = await silentServer();
    try {
      const { mailer } = mailerWith({ port: silent.port, timeoutMs: 200 });
      const started = Date.now();
      const error = await sendFailure(mailer, mail(address("silent")));
      expect(error).toMatchObject({ code: "email_send_failed" });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await silent.close();
    }
  });
});

/** A port on which nothing listens (bound, then released). */
async function freePort(): Promise<number> {
  const server = await listening(createServer());
  const port = portOf(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP server that accepts connections and says nothing. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<import("node:net").Socket>();
  const server = await listening(createServer((socket) => sockets.add(socket)));
  return {
    port: portOf(server),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const listening = (server: Server) =>
  new Promise<Server>((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
const portOf = (server: Server) => {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not listening on TCP");
  return address.port;
};
