import type { SmsGatewayFake } from "@authsvc/adapters/testing";
import {
  smsFailure,
  startMessagebirdFake,
  startTextlocalFake,
  startTwilioFake,
  startVonageFake,
} from "@authsvc/adapters/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type Config, loadConfig } from "../../config.js";
import { smsSenderOf } from "./sms-sender.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};

function configOf(vars: Record<string, string>): Config {
  const result = loadConfig({ ...production, ...vars });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

const accountSid = `AC${"c3".repeat(16)}`;
const gateways: {
  provider: string;
  start: () => Promise<SmsGatewayFake>;
  vars: (url: string) => Record<string, string>;
}[] = [
  {
    provider: "twilio",
    start: () => startTwilioFake({ accountSid, authToken: "tw-token", sender: "+15005550006" }),
    vars: (url) => ({
      AUTHSVC_SMS_TWILIO_ACCOUNT_SID: accountSid,
      AUTHSVC_SMS_TWILIO_AUTH_TOKEN: "tw-token",
      AUTHSVC_SMS_TWILIO_MESSAGE_SERVICE_SID: "+15005550006",
      AUTHSVC_SMS_TWILIO_BASE_URL: url,
    }),
  },
  {
    provider: "messagebird",
    start: () => startMessagebirdFake({ accessKey: "mb-key" }),
    vars: (url) => ({
      AUTHSVC_SMS_MESSAGEBIRD_ACCESS_KEY: "mb-key",
      AUTHSVC_SMS_MESSAGEBIRD_ORIGINATOR: "AuthSvc",
      AUTHSVC_SMS_MESSAGEBIRD_BASE_URL: url,
    }),
  },
  {
    provider: "textlocal",
    start: () => startTextlocalFake({ apiKey: "tl-key" }),
    vars: (url) => ({
      AUTHSVC_SMS_TEXTLOCAL_API_KEY: "tl-key",
      AUTHSVC_SMS_TEXTLOCAL_SENDER: "AuthSvc",
      AUTHSVC_SMS_TEXTLOCAL_BASE_URL: url,
    }),
  },
  {
    provider: "vonage",
    start: () => startVonageFake({ apiKey: "vn-key", apiSecret: "vn-secret" }),
    vars: (url) => ({
      AUTHSVC_SMS_VONAGE_API_KEY: "vn-key",
      AUTHSVC_SMS_VONAGE_API_SECRET: "vn-secret",
      AUTHSVC_SMS_VONAGE_FROM: "AuthSvc",
      AUTHSVC_SMS_VONAGE_BASE_URL: url,
    }),
  },
];

describe("smsSenderOf", () => {
  let fake: SmsGatewayFake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  for (const gateway of gateways) {
    it(`sends through ${gateway.provider} at its configured base URL`, async () => {
      fake = await gateway.start();
      const config = configOf({ AUTHSVC_SMS_PROVIDER: gateway.provider, ...gateway.vars(fake.url) });
      const { messageId } = await smsSenderOf(config).send("15551234567", "Your code is 246810");
      expect(fake.messages).toMatchObject([{ id: messageId, body: "Your code is 246810" }]);
    });
  }

  it("fails every send when no gateway is configured", async () => {
    const error = await smsFailure(smsSenderOf(configOf({})).send("15551234567", "hi"));
    expect(error.message).toBe("Error sending SMS: no SMS provider is configured");
  });
});
