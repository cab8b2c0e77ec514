import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  type SmsGatewayFake,
  startTwilioFake,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Test phone numbers (`SMS_TEST_OTP`) on the built server, through auth-js, with a loopback Twilio
 * that must receive nothing for them, and an hourly SMS cap of one that they must leave whole.
 */
const TWILIO = {
  accountSid: "AC0123456789abcdef0123456789abcdef",
  authToken: "tw-token",
  sender: "+15550001111",
};
const TEST_OTP = "+1 555 000 7777:123456, 15550008888:654321,+15550009999:111111";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-test-otp-"));
let ns: FreshNamespace;
let otherNs: FreshNamespace;
let fake: SmsGatewayFake;
let server: ServerProcess;
let expired: ServerProcess;
let serviceKey: string;

const env = (extra: Record<string, string>, namespace = ns) =>
  productionServerEnv(namespace, {
    AUTHSVC_EXTERNAL_PHONE_ENABLED: "true",
    AUTHSVC_SMS_PROVIDER: "twilio",
    AUTHSVC_SMS_TWILIO_ACCOUNT_SID: TWILIO.accountSid,
    AUTHSVC_SMS_TWILIO_AUTH_TOKEN: TWILIO.authToken,
    AUTHSVC_SMS_TWILIO_MESSAGE_SERVICE_SID: TWILIO.sender,
    AUTHSVC_SMS_TWILIO_BASE_URL: fake.url,
    AUTHSVC_SMS_TEST_OTP: TEST_OTP,
    AUTHSVC_RATE_LIMIT_SMS_SENT: "1",
    ...extra,
  });

beforeAll(async () => {
  [ns, otherNs] = await Promise.all([migratedNamespace(), migratedNamespace()]);
  serviceKey = await roleKey("service_role");
  fake = await startTwilioFake(TWILIO);
  [server, expired] = await Promise.all([
    startServer(env({}), { cwd }),
    // Its own database: its SMS cap is not the one the other server's tests spend.
    startServer(env({ AUTHSVC_SMS_TEST_OTP_VALID_UNTIL: "2020-01-01T00:00:00Z" }, otherNs), { cwd }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.stop(), expired?.stop()]);
  await fake?.close();
  await ns?.drop();
  await otherNs?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (s: ServerProcess) =>
  new GoTrueClient({ url: s.url, autoRefreshToken: false, persistSession: false });
const textsTo = (phone: string) => fake.messages.filter((m) => m.to.replace(/^\+/, "") === phone);

describe("test phone numbers", () => {
  it("OTP sign-in: nothing is texted, the fixed code verifies once, the frequency check applies", async () => {
    const auth = client(server);
    const sent = await auth.signInWithOtp({ phone: "+15550007777" });
    expect(sent.error).toBeNull();
    expect(sent.data.messageId).toBe("test-otp");
    const again = await auth.signInWithOtp({ phone: "+15550007777" });
    expect(again.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });
    const wrong = await auth.verifyOtp({ phone: "+15550007777", token: "000000", type: "sms" });
    expect(wrong.error).toMatchObject({ code: "otp_expired" });
    const verified = await auth.verifyOtp({ phone: "+15550007777", token: "123456", type: "sms" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toBeTruthy();
    expect(verified.data.user).toMatchObject({ phone: "15550007777" });
    const replayed = await client(server).verifyOtp({ phone: "+15550007777", token: "123456", type: "sms" });
    expect(replayed.error).toMatchObject({ code: "otp_expired" });
    expect(fake.messages).toEqual([]);
  });

  it("phone sign-up confirmed with the fixed code", async () => {
    const auth = client(server);
    const signedUp = await auth.signUp({ phone: "+15550008888", password: "a long secret phrase" });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).toBeNull();
    const verified = await auth.verifyOtp({ phone: "+15550008888", token: "654321", type: "sms" });
    expect(verified.error).toBeNull();
    expect(typeof verified.data.user?.phone_confirmed_at).toBe("string");
    expect(textsTo("15550008888")).toEqual([]);
  });

  it("phone change to a test number verified with its fixed code", async () => {
    const admin = new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
    const email = `changer-${Date.now()}@example.com`;
    expect(
      (await admin.createUser({ email, password: "a long secret phrase", email_confirm: true })).error,
    ).toBeNull();
    const auth = client(server);
    expect((await auth.signInWithPassword({ email, password: "a long secret phrase" })).error).toBeNull();
    const requested = await auth.updateUser({ phone: "+15550009999" });
    expect(requested.error).toBeNull();
    expect(requested.data.user).toMatchObject({ new_phone: "15550009999" });
    const verified = await auth.verifyOtp({ phone: "+15550009999", token: "111111", type: "phone_change" });
    expect(verified.error).toBeNull();
    expect(verified.data.user).toMatchObject({ phone: "15550009999" });
    expect(textsTo("15550009999")).toEqual([]);
  });

  it("left the hourly SMS cap whole: one real text still goes out, and then the cap refuses", async () => {
    expect(textsTo("15550004321")).toEqual([]);
    const first = await client(server).signInWithOtp({ phone: "+15550004321" });
    expect(first.error).toBeNull();
    expect(textsTo("15550004321")).toHaveLength(1);
    const second = await client(server).signInWithOtp({ phone: "+15550004322" });
    expect(second.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });
  });

  it("after SMS_TEST_OTP_VALID_UNTIL a test number is an ordinary one", async () => {
    const auth = client(expired);
    const sent = await auth.signInWithOtp({ phone: "+15550007777" });
    expect(sent.error).toBeNull();
    expect(sent.data.messageId).not.toBe("test-otp");
    const texts = textsTo("15550007777");
    expect(texts).toHaveLength(1);
    const code = /(\d{6})/.exec(texts[0]?.body ?? "")?.[1];
    expect(code).not.toBe("123456");
    const fixed = await auth.verifyOtp({ phone: "+15550007777", token: "123456", type: "sms" });
    expect(fixed.error).toMatchObject({ code: "otp_expired" });
    const texted = await auth.verifyOtp({ phone: "+15550007777", token: code ?? "", type: "sms" });
    expect(texted.error).toBeNull();
  });
});

describe("SMS_TEST_OTP refused at start when malformed", () => {
  it.each(["15550007777", "not-a-phone:123456", "15550007777:"])("%s", async (value) => {
    const { runServer } = await import("./support/server-process.js");
    const exit = await runServer(env({ AUTHSVC_SMS_TEST_OTP: value }), { cwd });
    expect(exit.code).not.toBe(0);
    expect(exit.stdout + exit.stderr).toContain("AUTHSVC_SMS_TEST_OTP");
  });
});
