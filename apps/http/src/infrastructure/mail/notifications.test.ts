import { createHmac } from "node:crypto";
import {
  type FakeProvider,
  type FreshNamespace,
  freshNamespace,
  json,
  keycloakCase,
  type ReceivedMail,
  startFakeProvider,
  startSmtpSink,
} from "@authsvc/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Composition } from "../../composition/compose.js";
import { COMPOSED_BASE as BASE, composedApp } from "../../testing/composed-app.js";
import { roleKey } from "../../testing/server-env.js";

/**
 * The account-change notifications through the composed app (real Postgres), mailed to a real SMTP
 * server: one change of each kind and the mail the user gets; with the switches off, or the change
 * refused, nothing. A composition's `close` delivers what its queue holds, so "nothing" is checked
 * once the app that would have mailed it has closed.
 */
const PASSWORD = "a-long-password-1";
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let keycloak: FakeProvider;
let serviceKey: string;
let app: Composition;

const SWITCHES = Object.fromEntries(
  [
    "PASSWORD_CHANGED",
    "EMAIL_CHANGED",
    "PHONE_CHANGED",
    "IDENTITY_LINKED",
    "IDENTITY_UNLINKED",
    "MFA_FACTOR_ENROLLED",
    "MFA_FACTOR_UNENROLLED",
  ].map((change) => [`AUTHSVC_MAILER_NOTIFICATIONS_${change}_ENABLED`, "true"]),
);

const env = () => ({
  AUTHSVC_SMTP_HOST: sink.host,
  AUTHSVC_SMTP_PORT: String(sink.port),
  AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
  AUTHSVC_EXTERNAL_PHONE_ENABLED: "true",
  AUTHSVC_SMS_AUTOCONFIRM: "true",
  AUTHSVC_SECURITY_MANUAL_LINKING_ENABLED: "true",
  AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
  AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: keycloak.clientId,
  AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: keycloak.secret,
  AUTHSVC_EXTERNAL_KEYCLOAK_URL: keycloak.url,
});

beforeAll(async () => {
  ns = await freshNamespace();
  sink = await startSmtpSink();
  serviceKey = await roleKey("service_role");
  keycloak = await startFakeProvider({
    ...keycloakCase.behaviour,
    resources: {
      "GET /realms/main/protocol/openid-connect/userinfo": () =>
        json(200, { sub: "kc-1", email: "kc-1@example.org", email_verified: true, name: "K" }),
    },
  });
  app = await composedApp(ns, { ...env(), ...SWITCHES });
});

afterAll(async () => {
  await app?.close();
  await ns?.drop();
  await sink?.close();
  await keycloak?.close();
});

type Call = { method?: string; body?: unknown; token?: string };
async function call(composition: Composition, path: string, { method = "GET", body, token }: Call = {}) {
  const res = await composition.app.fetch(
    new Request(`${BASE}${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

let counter = 0;
/** A confirmed user with a password, signed in: its address and access token. */
async function signedInUser(composition = app) {
  const email = `notified-${Date.now()}-${++counter}@example.com`;
  const created = await composition.app.fetch(
    new Request(`${BASE}/admin/users`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${serviceKey}`,
        apikey: serviceKey,
      },
      body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
    }),
  );
  expect(created.status).toBe(200);
  const signIn = await call(composition, "/token?grant_type=password", {
    method: "POST",
    body: { email, password: PASSWORD },
  });
  expect(signIn.status).toBe(200);
  return { email, token: String(signIn.body.access_token) };
}

/** The mail's subject and its text, in one line. */
const seen = (mail: ReceivedMail) => `${mail.subject} | ${mail.text.replace(/\s+/g, " ").trim()}`;

/** RFC 6238 with SHA-1, 30 s steps, 6 digits: what an authenticator app shows for `base32`. */
function totp(base32: string): string {
  const bits = [...base32.replace(/=+$/, "")]
    .map((c) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".indexOf(c).toString(2).padStart(5, "0"))
    .join("");
  const key = Buffer.from(bits.match(/.{8}/g)?.map((byte) => Number.parseInt(byte, 2)) ?? []);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

describe("account-change notifications", () => {
  it("password changed: mailed to the user once the new password is stored", async () => {
    const { email, token } = await signedInUser();
    const changed = await call(app, "/user", {
      method: "PUT",
      body: { password: "another-password-2" },
      token,
    });
    expect(changed.status).toBe(200);
    const mail = await sink.next(email);
    expect(mail.headers.from).toBe("auth@example.com");
    expect(seen(mail)).toBe(
      "Your password was changed | Your password was changed The password for your account was recently changed. If you didn't make this change, reset your password and contact support immediately.",
    );
    expect(mail.html).toContain("<h2>Your password was changed</h2>");
  });

  it("email changed: mailed to the old address, naming both", async () => {
    const { email, token } = await signedInUser();
    const next = `moved-${counter}@example.com`;
    const changed = await call(app, "/user", { method: "PUT", body: { email: next }, token });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe(next);
    expect(seen(await sink.next(email))).toContain(
      `Your email address was changed | Your email address was changed The email address for your account was changed from ${email} to ${next}.`,
    );
  });

  it("phone changed: mailed to the user's address with the old and new number", async () => {
    const { email, token } = await signedInUser();
    const phone = `1555${String(Date.now()).slice(-7)}`;
    const changed = await call(app, "/user", { method: "PUT", body: { phone: `+${phone}` }, token });
    expect(changed.status).toBe(200);
    expect(seen(await sink.next(email))).toContain(
      `Your phone number was changed | Your phone number was changed The phone number for your account was changed from to ${phone}.`,
    );
  });

  it("identity linked, then unlinked: each mailed with its provider", async () => {
    const { email, token } = await signedInUser();
    const started = await call(app, "/user/identities/authorize?provider=keycloak&skip_http_redirect=true", {
      token,
    });
    expect(started.status).toBe(200);
    const atProvider = await fetch(String(started.body.url), { redirect: "manual" });
    const back = new URL(atProvider.headers.get("location") ?? "");
    const landed = await app.app.fetch(new Request(`${BASE}/callback${back.search}`));
    expect(landed.status).toBe(302);
    expect(seen(await sink.next(email))).toContain(
      `A new sign-in method was linked to your account | A new sign-in method was linked Your keycloak account was linked as a new sign-in method for ${email}.`,
    );

    const user = await call(app, "/user", { token });
    const identities = user.body.identities as { identity_id: string; provider: string }[];
    const linked = identities.find((i) => i.provider === "keycloak");
    expect(linked).toBeDefined();
    const unlinked = await call(app, `/user/identities/${linked?.identity_id}`, { method: "DELETE", token });
    expect(unlinked.status).toBe(200);
    const mails = async () => sink.mails.filter((m) => m.to.includes(email)).map(seen);
    await expect.poll(mails).toHaveLength(2);
    expect((await mails())[1]).toContain(
      `A sign-in method was removed from your account | A sign-in method was removed Your keycloak account was removed as a sign-in method for ${email}.`,
    );
  });

  it("MFA factor enrolled when first verified, removed when unenrolled", async () => {
    const { email, token } = await signedInUser();
    const enrolled = await call(app, "/factors", { method: "POST", body: { factor_type: "totp" }, token });
    expect(enrolled.status).toBe(200);
    const id = String(enrolled.body.id);
    const secret = String((enrolled.body.totp as { secret: string }).secret);
    const challenge = await call(app, `/factors/${id}/challenge`, { method: "POST", body: {}, token });
    const verified = await call(app, `/factors/${id}/verify`, {
      method: "POST",
      body: { challenge_id: challenge.body.id, code: totp(secret) },
      token,
    });
    expect(verified.status).toBe(200);
    expect(seen(await sink.next(email))).toContain(
      "A new verification method was added to your account | A new verification method was added Sign-in verification method totp was added to your account.",
    );
    const aal2 = String(verified.body.access_token);
    const removed = await call(app, `/factors/${id}`, { method: "DELETE", token: aal2 });
    expect(removed.status).toBe(200);
    const mails = async () => sink.mails.filter((m) => m.to.includes(email)).map(seen);
    await expect.poll(mails).toHaveLength(2);
    expect((await mails())[1]).toContain(
      "A verification method was removed from your account | A verification method was removed Sign-in verification method totp was removed from your account.",
    );
  });

  it("mails nothing with the switches off, nor for a change that was refused", async () => {
    const off = await composedApp(ns, env());
    const quiet = await signedInUser(off);
    expect(
      (
        await call(off, "/user", {
          method: "PUT",
          body: { password: "another-password-2" },
          token: quiet.token,
        })
      ).status,
    ).toBe(200);
    await off.close();

    const refusing = await composedApp(ns, { ...env(), ...SWITCHES });
    const refused = await signedInUser(refusing);
    const other = await signedInUser(refusing);
    // Another account's address, an unknown factor, a password too short: each refused, nothing changed.
    const taken = await call(refusing, "/user", {
      method: "PUT",
      body: { email: other.email },
      token: refused.token,
    });
    expect(taken.body.error_code).toBe("email_exists");
    const unknown = await call(refusing, "/factors/00000000-0000-4000-8000-000000000000", {
      method: "DELETE",
      token: refused.token,
    });
    expect(unknown.status).toBe(404);
    const weak = await call(refusing, "/user", {
      method: "PUT",
      body: { password: "a" },
      token: refused.token,
    });
    expect(weak.body.error_code).toBe("weak_password");
    await refusing.close();

    const addresses = [quiet.email, refused.email, other.email];
    expect(sink.mails.filter((mail) => mail.to.some((to) => addresses.includes(to)))).toEqual([]);
  });
});
