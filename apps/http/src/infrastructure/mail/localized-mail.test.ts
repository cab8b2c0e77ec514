import {
  type FreshNamespace,
  freshNamespace,
  type ReceivedMail,
  startSmtpSink,
  startTemplateServer,
} from "@authsvc/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Composition } from "../../composition/compose.js";
import { COMPOSED_BASE as BASE, composedApp } from "../../testing/composed-app.js";
import { roleKey } from "../../testing/server-env.js";

/**
 * Mail in the user's language through the composed app (real Postgres) and a real SMTP server:
 * French has a subject and a template (fetched from a loopback server), German a subject only.
 */
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let templates: Awaited<ReturnType<typeof startTemplateServer>>;
let app: Composition;
let serviceKey: string;

beforeAll(async () => {
  ns = await freshNamespace();
  sink = await startSmtpSink();
  serviceKey = await roleKey("service_role");
  templates = await startTemplateServer({
    "/fr/recovery.html": {
      status: 200,
      body: "<p>Bonjour {{ .Email }}, choisissez un mot de passe : {{ .Token }}</p>",
    },
  });
  app = await composedApp(ns, {
    AUTHSVC_SMTP_HOST: sink.host,
    AUTHSVC_SMTP_PORT: String(sink.port),
    AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
    AUTHSVC_MAILER_SUBJECTS_RECOVERY_FR: "Réinitialisez votre mot de passe",
    AUTHSVC_MAILER_TEMPLATES_RECOVERY_FR: templates.url("/fr/recovery.html"),
    AUTHSVC_MAILER_SUBJECTS_RECOVERY_DE: "Passwort zurücksetzen",
    AUTHSVC_MAILER_NOTIFICATIONS_PASSWORD_CHANGED_ENABLED: "true",
    AUTHSVC_MAILER_SUBJECTS_PASSWORD_CHANGED_NOTIFICATION_PT_BR: "Sua senha foi alterada",
  });
});

afterAll(async () => {
  await app?.close();
  await ns?.drop();
  await sink?.close();
  await templates?.close();
});

let counter = 0;
/** A confirmed user with `metadata`; its address. */
async function user(metadata: Record<string, unknown> = {}): Promise<string> {
  const email = `lang-${Date.now()}-${++counter}@example.com`;
  const res = await app.app.fetch(
    new Request(`${BASE}/admin/users`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${serviceKey}`,
        apikey: serviceKey,
      },
      body: JSON.stringify({
        email,
        password: "a-long-password-1",
        email_confirm: true,
        user_metadata: metadata,
      }),
    }),
  );
  expect(res.status).toBe(200);
  return email;
}

/** `POST /recover` for `email` with the request's `query` and `headers`; the mail that arrives. */
async function recover(
  email: string,
  query = "",
  headers: Record<string, string> = {},
): Promise<ReceivedMail> {
  const res = await app.app.fetch(
    new Request(`${BASE}/recover${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ email }),
    }),
  );
  expect(res.status).toBe(200);
  return sink.next(email);
}

describe("localized mail", () => {
  it("takes the user's locale from user_metadata: the French subject and template", async () => {
    const email = await user({ locale: "fr" });
    const mail = await recover(email);
    expect(mail.subject).toBe("Réinitialisez votre mot de passe");
    expect(mail.html).toMatch(new RegExp(`^<p>Bonjour ${email}, choisissez un mot de passe : \\d{6}</p>$`));
    // The text part is the French template's text, not the built-in English one.
    expect(mail.text.trim()).toMatch(new RegExp(`^Bonjour ${email}, choisissez un mot de passe : \\d{6}$`));
  });

  it("else the request's Accept-Language, by q-value and then by language: a German subject, the default body", async () => {
    const email = await user();
    const mail = await recover(email, "", { "accept-language": "es;q=0.9, de-CH, en;q=0.5" });
    expect(mail.subject).toBe("Passwort zurücksetzen");
    expect(mail.html).toContain("<h2>Reset your password</h2>");
  });

  it("the request's locale parameter comes before Accept-Language, the user's own before both", async () => {
    const plain = await user();
    expect((await recover(plain, "?locale=fr", { "accept-language": "de" })).subject).toBe(
      "Réinitialisez votre mot de passe",
    );
    const french = await user({ locale: "fr" });
    expect((await recover(french, "?locale=de", { "accept-language": "de" })).subject).toBe(
      "Réinitialisez votre mot de passe",
    );
  });

  it("falls back to the default subject and template for a locale that has neither", async () => {
    const email = await user({ locale: "es" });
    const mail = await recover(email, "", { "accept-language": "it" });
    expect(mail.subject).toBe("Reset Your Password");
    expect(mail.html).toContain("<h2>Reset your password</h2>");
  });

  it("localizes notifications too (a region's locale, pt-BR)", async () => {
    const email = await user({ locale: "pt-BR" });
    const signIn = await app.app.fetch(
      new Request(`${BASE}/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "a-long-password-1" }),
      }),
    );
    const { access_token } = (await signIn.json()) as { access_token: string };
    const changed = await app.app.fetch(
      new Request(`${BASE}/user`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ password: "another-password-2" }),
      }),
    );
    expect(changed.status).toBe(200);
    expect((await sink.next(email)).subject).toBe("Sua senha foi alterada");
  });
});
