import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  type SmsGatewayFake,
  startMessagebirdFake,
  startTextlocalFake,
  startTwilioFake,
  startVonageFake,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Phone sign-up and phone OTP through each of the four gateways, each gateway a loopback fake of its
 * HTTP API that checks credentials, sender and recipient as the real one does.
 */
const gateways: {
  name: string;
  start: () => Promise<SmsGatewayFake>;
  env: (url: string) => Record<string, string>;
}[] = [
  {
    name: "twilio",
    start: () =>
      startTwilioFake({
        accountSid: "AC0123456789abcdef0123456789abcdef",
        authToken: "tw-token",
        sender: "+15550001111",
      }),
    env: (url) => ({
      AUTHSVC_SMS_PROVIDER: "twilio",
      AUTHSVC_SMS_TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
      AUTHSVC_SMS_TWILIO_AUTH_TOKEN: "tw-token",
      AUTHSVC_SMS_TWILIO_MESSAGE_SERVICE_SID: "+15550001111",
      AUTHSVC_SMS_TWILIO_BASE_URL: url,
    }),
  },
  {
    name: "messagebird",
    start: () => startMessagebirdFake({ accessKey: "mb-key" }),
    env: (url) => ({
      AUTHSVC_SMS_PROVIDER: "messagebird",
      AUTHSVC_SMS_MESSAGEBIRD_ACCESS_KEY: "mb-key",
      AUTHSVC_SMS_MESSAGEBIRD_ORIGINATOR: "Example",
      AUTHSVC_SMS_MESSAGEBIRD_BASE_URL: url,
    }),
  },
  {
    name: "textlocal",
    start: () => startTextlocalFake({ apiKey: "tl-key" }),
    env: (url) => ({
      AUTHSVC_SMS_PROVIDER: "textlocal",
      AUTHSVC_SMS_TEXTLOCAL_API_KEY: "tl-key",
      AUTHSVC_SMS_TEXTLOCAL_SENDER: "Example",
      AUTHSVC_SMS_TEXTLOCAL_BASE_URL: url,
    }),
  },
  {
    name: "vonage",
    start: () => startVonageFake({ apiKey: "vo-key", apiSecret: "vo-secret" }),
    env: (url) => ({
      AUTHSVC_SMS_PROVIDER: "vonage",
      AUTHSVC_SMS_VONAGE_API_KEY: "vo-key",
      AUTHSVC_SMS_VONAGE_API_SECRET: "vo-secret",
      AUTHSVC_SMS_VONAGE_FROM: "Example",
      AUTHSVC_SMS_VONAGE_BASE_URL: url,
    }),
  },
];

let ns: FreshNamespace;
let serviceKey: string;
const running: { name: string; fake: SmsGatewayFake; server: ServerProcess }[] = [];
let noGateway: ServerProcess;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sms-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  const phoneEnv = { AUTHSVC_EXTERNAL_PHONE_ENABLED: "true" };
  await Promise.all(
    gateways.map(async (g) => {
      const fake = await g.start();
      const server = await startServer(productionServerEnv(ns, { ...phoneEnv, ...g.env(fake.url) }), { cwd });
      running.push({ name: g.name, fake, server });
    }),
  );
  noGateway = await startServer(productionServerEnv(ns, phoneEnv), { cwd });
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map(async ({ fake, server }) => Promise.all([server.stop(), fake.close()])));
  await noGateway?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

let counter = 0;
const newPhone = () => `1555${String(Date.now() % 1_000_000).padStart(6, "0")}${++counter % 10}`;
const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const codeIn = (fake: SmsGatewayFake, phone: string, n = 1) => {
  const texts = fake.messages.filter((m) => m.to.replace(/^\+/, "") === phone);
  const match = /(\d{6})/.exec(texts[n - 1]?.body ?? "");
  if (!match?.[1]) throw new Error(`no code #${n} for ${phone}`);
  return match[1];
};
const gateway = (name: string) => {
  const found = running.find((r) => r.name === name);
  if (!found) throw new Error(name);
  return found;
};

describe.each(gateways.map((g) => g.name))("SMS through %s", (name) => {
  it("phone sign-up: the code from the SMS confirms the phone and signs in", async () => {
    const { fake, server } = gateway(name);
    const phone = newPhone();
    const { data, error } = await client(server).signUp({ phone: `+${phone}`, password: "secret-pw" });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const code = codeIn(fake, phone);
    expect(fake.messages.find((m) => m.to.replace(/^\+/, "") === phone)?.body).toBe(`Your code is ${code}`);
    const verified = await client(server).verifyOtp({ phone: `+${phone}`, token: code, type: "sms" });
    expect(verified.error).toBeNull();
    expect(verified.data.user).toMatchObject({ phone });
    expect(typeof verified.data.user?.phone_confirmed_at).toBe("string");
  });

  it("phone OTP sign-in, throttled per number", async () => {
    const { fake, server } = gateway(name);
    const phone = newPhone();
    const admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
    expect((await admin.createUser({ phone, phone_confirm: true })).error).toBeNull();
    const sent = await client(server).signInWithOtp({ phone: `+${phone}` });
    expect(sent.error).toBeNull();
    expect(sent.data.messageId).toBeTruthy();
    const again = await client(server).signInWithOtp({ phone: `+${phone}` });
    expect(again.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });
    const { data, error } = await client(server).verifyOtp({
      phone: `+${phone}`,
      token: codeIn(fake, phone),
      type: "sms",
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
  });

  it("a gateway refusal is sms_send_failed and asking again works", async () => {
    const { fake, server } = gateway(name);
    const phone = newPhone();
    fake.failNext("rejected");
    const failed = await client(server).signUp({ phone: `+${phone}`, password: "secret-pw" });
    expect(failed.error).toMatchObject({ code: "sms_send_failed" });
    const retried = await client(server).signUp({ phone: `+${phone}`, password: "secret-pw" });
    expect(retried.error).toBeNull();
    expect(codeIn(fake, phone)).toMatch(/^\d{6}$/);
  });
});

describe("codes by WhatsApp", () => {
  const CHANNEL_ERROR =
    "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.";
  const whatsappCode = (fake: SmsGatewayFake, phone: string) => {
    const message = fake.messages.find((m) => m.to === `whatsapp:+${phone}`);
    const match = /(\d{6})/.exec(message?.body ?? "");
    if (!match?.[1]) throw new Error(`no WhatsApp code for ${phone}`);
    return { code: match[1], from: message?.from };
  };

  it("signInWithOtp with channel whatsapp sends the code through Twilio's WhatsApp, and it signs in", async () => {
    const { fake, server } = gateway("twilio");
    const phone = newPhone();
    const sent = await client(server).signInWithOtp({ phone: `+${phone}`, options: { channel: "whatsapp" } });
    expect(sent.error).toBeNull();
    const { code, from } = whatsappCode(fake, phone);
    expect(from).toBe("whatsapp:+15550001111");
    expect(fake.messages.some((m) => m.to === `+${phone}`)).toBe(false);
    const { data, error } = await client(server).verifyOtp({ phone: `+${phone}`, token: code, type: "sms" });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
  });

  it("a phone sign-up with channel whatsapp is confirmed by the WhatsApp code", async () => {
    const { fake, server } = gateway("twilio");
    const phone = newPhone();
    const signedUp = await client(server).signUp({
      phone: `+${phone}`,
      password: "secret-pw",
      options: { channel: "whatsapp" },
    });
    expect(signedUp.error).toBeNull();
    const { code } = whatsappCode(fake, phone);
    const verified = await client(server).verifyOtp({ phone: `+${phone}`, token: code, type: "sms" });
    expect(verified.error).toBeNull();
    expect(typeof verified.data.user?.phone_confirmed_at).toBe("string");
  });

  it("is refused with the reference's words where the gateway cannot carry it, and nothing is sent", async () => {
    const { fake, server } = gateway("vonage");
    const phone = newPhone();
    const before = fake.messages.length;
    const otp = await client(server).signInWithOtp({ phone: `+${phone}`, options: { channel: "whatsapp" } });
    expect(otp.error).toMatchObject({ status: 400, code: "validation_failed", message: CHANNEL_ERROR });
    const signedUp = await client(server).signUp({
      phone: `+${phone}`,
      password: "secret-pw",
      options: { channel: "whatsapp" },
    });
    expect(signedUp.error).toMatchObject({ status: 400, code: "validation_failed", message: CHANNEL_ERROR });
    expect(fake.messages.length).toBe(before);
  });

  it("a channel with an email address is refused", async () => {
    const res = await fetch(`${gateway("twilio").server.url}/otp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "wa@example.com", channel: "whatsapp" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "Channel should only be specified with Phone OTP",
    });
  });
});

describe("phone change", () => {
  it("PUT /user with a new phone texts a code to it; verify phone_change applies it", async () => {
    const { fake, server } = gateway("twilio");
    const oldPhone = newPhone();
    const admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
    await admin.createUser({ phone: oldPhone, password: "secret-pw", phone_confirm: true });
    const c = client(server);
    expect((await c.signInWithPassword({ phone: `+${oldPhone}`, password: "secret-pw" })).error).toBeNull();
    const target = newPhone();
    const requested = await c.updateUser({ phone: `+${target}` });
    expect(requested.error).toBeNull();
    expect(requested.data.user).toMatchObject({ phone: oldPhone, new_phone: target });
    const { data, error } = await c.verifyOtp({
      phone: `+${target}`,
      token: codeIn(fake, target),
      type: "phone_change",
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ phone: target });
    expect(
      (await client(server).signInWithPassword({ phone: `+${target}`, password: "secret-pw" })).error,
    ).toBeNull();
  });
});

describe("without an SMS gateway", () => {
  it("sending a code is an error, not silence", async () => {
    const { error } = await client(noGateway).signInWithOtp({ phone: `+${newPhone()}` });
    expect(error).toMatchObject({ code: "sms_send_failed" });
  });
});
