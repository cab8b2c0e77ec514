import { describe, expect, it } from "vitest";
import { describeSmsGateway } from "../testing/sms/sms-sender-suite.js";
import { startVonageFake } from "../testing/sms/vonage.js";
import { vonageSms } from "./vonage.js";

const apiKey = "a1b2c3d4";
const apiSecret = "vonage-api-secret";

describeSmsGateway({
  gateway: "vonage",
  start: () => startVonageFake({ apiKey, apiSecret }),
  sender: ({ baseUrl, wrongSecret, timeoutMs }) =>
    vonageSms({ apiKey, apiSecret: wrongSecret ?? apiSecret, from: "AuthSvc", baseUrl, timeoutMs }),
  secret: apiSecret,
  received: (to) => ({ to, from: "AuthSvc" }),
  messages: {
    wrongSecret: "Bad Credentials (code 4)",
    invalidRecipient: "Invalid to param (code 3)",
    rejected: "Quota Exceeded - rejected (code 9)",
    serverError: "HTTP 500",
  },
});

describe("vonageSms with non-ASCII text", () => {
  it("delivers the text unchanged", async () => {
    const fake = await startVonageFake({ apiKey, apiSecret });
    try {
      await vonageSms({ apiKey, apiSecret, from: "AuthSvc", baseUrl: fake.url }).send(
        "15551234567",
        "Código: 123456 ✓",
      );
      expect(fake.messages.map((m) => m.body)).toEqual(["Código: 123456 ✓"]);
    } finally {
      await fake.close();
    }
  });
});
