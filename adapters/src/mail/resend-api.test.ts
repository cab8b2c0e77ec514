import { describe, expect, it } from "vitest";
import { describeMailApi, TEST_SUBJECTS } from "../testing/mail-api/mail-api-suite.js";
import { startResendFake } from "../testing/mail-api/providers.js";
import { apiMailer } from "./mail-api.js";
import { resendApi } from "./resend-api.js";

const apiKey = "re_test_0123456789abcdef";

describeMailApi({
  name: "resend",
  start: () => startResendFake(apiKey),
  provider: ({ baseUrl, wrongSecret }) => resendApi({ apiKey: wrongSecret ?? apiKey, baseUrl }),
  secret: apiKey,
  messages: {
    wrongSecret: "API key is invalid (invalid_api_key)",
    refused:
      "You can only send testing emails to your own email address. To send to [redacted], verify a domain. (validation_error)",
  },
});

describe("resend mail API", () => {
  it("sends one mail once when the answer to its first attempt was lost (same Idempotency-Key)", async () => {
    const fake = await startResendFake(apiKey);
    try {
      fake.failNext({ kind: "lostAnswer" });
      const mailer = apiMailer({
        provider: resendApi({ apiKey, baseUrl: fake.url }),
        senderName: "auth@example.com",
        adminEmail: "auth@example.com",
        siteUrl: "https://app.example.com",
        subjects: TEST_SUBJECTS,
        warn: () => {},
        backoffMs: 1,
      });
      await mailer.send({
        kind: "magic_link",
        to: "bo@example.com",
        confirmationUrl: "https://x/verify?t=1",
      });
      expect(fake.requests).toHaveLength(2);
      const keys = fake.requests.map((request) => request.headers["idempotency-key"]);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(fake.mails).toHaveLength(1);
      // A sender name that is the address itself is left out.
      expect(fake.mails[0]?.from).toBe("auth@example.com");
    } finally {
      await fake.close();
    }
  });
});
