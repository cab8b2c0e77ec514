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
import { memoryLogger } from "../../testing/memory-log.js";
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
const { logger } = memoryLogger();

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
      const { messageId } = await smsSenderOf(config, logger).send("15551234567", "Your code is 246810");
      expect(fake.messages).toMatchObject([{ id: messageId, body: "Your code is 246810" }]);
    });
  }

  it("fails every send when no gateway is configured", async () => {
    const error = await smsFailure(smsSenderOf(configOf({}), logger).send("15551234567", "hi"));
    expect(error.message).toBe("Error sending SMS: no SMS provider is configured");
  });

  it("with SMS_PROVIDER=log, writes each text and its code to the log, past the redaction of codes", async () => {
    const log = memoryLogger();
    const sender = smsSenderOf(configOf({ AUTHSVC_SMS_PROVIDER: "log" }), log.logger);
    const { messageId } = await sender.send("15551234567", "Your code is 246810", {
      otp: "246810",
      user: {} as never,
    });
    expect(log.lines()).toEqual([
      expect.objectContaining({
        level: "info",
        sms_to: "+15551234567",
        sms_body: "Your code is 246810",
        sms_code: "246810",
        sms_message_id: messageId,
      }),
    ]);
  });
});

describe("the SMS provider by mode", () => {
  const load = (vars: Record<string, string | undefined>, base: Record<string, string> = production) => {
    const result = loadConfig(
      { ...base, ...vars },
      { devJwtSecret: () => "dev-secret-generated-0123456789ab" },
    );
    if (!result.ok) throw new Error(result.problems.join("\n"));
    return result;
  };

  it("embedded mode writes texts to the log unless a provider is set, and says so", () => {
    const { config, notices } = load({}, {});
    expect(config.sms.provider).toBe("log");
    expect(notices).toContain(
      "AUTHSVC_SMS_PROVIDER not set: text messages are written to the log (embedded mode)",
    );
    expect(
      load({ AUTHSVC_SMS_PROVIDER: "twilio", ...gateways[0]?.vars("http://127.0.0.1:9") }, {}).config.sms
        .provider,
    ).toBe("twilio");
  });

  it("a server on a real database never falls back to the log; chosen, the log is used with a warning at start", () => {
    const unset = load({});
    expect(unset.config.sms.provider).toBeUndefined();
    expect(unset.warnings.join("\n")).not.toContain("SMS_PROVIDER");
    const chosen = load({ AUTHSVC_SMS_PROVIDER: "log" });
    expect(chosen.config.sms.provider).toBe("log");
    expect(chosen.warnings).toContain(
      "AUTHSVC_SMS_PROVIDER=log: text messages are not sent, each is written to the log with its code; anyone who reads the log can sign in with those codes",
    );
  });
});
