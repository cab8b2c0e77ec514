import { describe, expect, it } from "vitest";
import { describeSmsGateway } from "../testing/sms/sms-sender-suite.js";
import { startTwilioFake } from "../testing/sms/twilio.js";
import { twilioSms } from "./twilio.js";

const accountSid = `AC${"a1".repeat(16)}`;
const authToken = "twilio-auth-token-secret";
const serviceSid = `MG${"b2".repeat(16)}`;

describeSmsGateway({
  gateway: "twilio",
  start: () => startTwilioFake({ accountSid, authToken, sender: serviceSid }),
  sender: ({ baseUrl, wrongSecret, timeoutMs }) =>
    twilioSms({
      accountSid,
      authToken: wrongSecret ?? authToken,
      messageServiceSid: serviceSid,
      baseUrl,
      timeoutMs,
    }),
  secret: authToken,
  received: (to) => ({ to: `+${to}`, from: serviceSid }),
  messages: {
    wrongSecret: "Authenticate (code 20003)",
    invalidRecipient: "The 'To' number +12 is not a valid phone number. (code 21211)",
    rejected: "Attempt to send to unsubscribed recipient (code 21610)",
    serverError: "Internal Server Error (code 20500)",
  },
});

describe("twilioSms with a sender phone number", () => {
  it("sends From the number instead of through a messaging service", async () => {
    const fake = await startTwilioFake({ accountSid, authToken, sender: "+15005550006" });
    try {
      const sms = twilioSms({ accountSid, authToken, messageServiceSid: "+15005550006", baseUrl: fake.url });
      await sms.send("447700900123", "Your code is 654321");
      expect(fake.messages).toMatchObject([{ to: "+447700900123", from: "+15005550006" }]);
    } finally {
      await fake.close();
    }
  });

  it("fails with Twilio's message when the number is not the account's", async () => {
    const fake = await startTwilioFake({ accountSid, authToken, sender: "+15005550006" });
    try {
      const sms = twilioSms({ accountSid, authToken, messageServiceSid: "+15005550009", baseUrl: fake.url });
      await expect(sms.send("447700900123", "hi")).rejects.toMatchObject({
        code: "sms_send_failed",
        message: expect.stringContaining("The From phone number +15005550009 is not a valid"),
      });
    } finally {
      await fake.close();
    }
  });
});

describe("twilioSms over WhatsApp", () => {
  const user = { id: "u1" } as never;

  it("sends to whatsapp:+number from the whatsapp: sender number, with the text as body", async () => {
    const fake = await startTwilioFake({ accountSid, authToken, sender: "+15005550006" });
    try {
      const sms = twilioSms({ accountSid, authToken, messageServiceSid: "+15005550006", baseUrl: fake.url });
      await sms.send("447700900123", "Your code is 654321", { otp: "654321", user, channel: "whatsapp" });
      expect(fake.messages).toMatchObject([
        { to: "whatsapp:+447700900123", from: "whatsapp:+15005550006", body: "Your code is 654321" },
      ]);
    } finally {
      await fake.close();
    }
  });

  it("with a content template, sends its SID and the code as variable 1 instead of a body", async () => {
    const fake = await startTwilioFake({ accountSid, authToken, sender: serviceSid });
    try {
      const contentSid = `HX${"c3".repeat(16)}`;
      const sms = twilioSms({
        accountSid,
        authToken,
        messageServiceSid: serviceSid,
        contentSid,
        baseUrl: fake.url,
      });
      await sms.send("447700900123", "Your code is 654321", { otp: "654321", user, channel: "whatsapp" });
      expect(fake.messages).toEqual([
        expect.objectContaining({
          to: "whatsapp:+447700900123",
          from: serviceSid,
          body: "",
          contentSid,
          contentVariables: '{"1":"654321"}',
        }),
      ]);
      // A text message keeps its body even with a template configured.
      await sms.send("447700900123", "Your code is 111111", { otp: "111111", user });
      expect(fake.messages[1]).toMatchObject({ to: "+447700900123", body: "Your code is 111111" });
      expect(fake.messages[1]).not.toHaveProperty("contentSid");
    } finally {
      await fake.close();
    }
  });
});
