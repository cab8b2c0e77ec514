import { describe, expect, it } from "vitest";
import { describeMailApi, TEST_SUBJECTS } from "../testing/mail-api/mail-api-suite.js";
import { startMailgunFake } from "../testing/mail-api/providers.js";
import { apiMailer } from "./mail-api.js";
import { mailgunApi } from "./mailgun-api.js";

const apiKey = "key-0123456789abcdef0123456789abcdef";
const domain = "mg.example.com";

describeMailApi({
  name: "mailgun",
  start: () => startMailgunFake(apiKey, domain),
  provider: ({ baseUrl, wrongSecret }) => mailgunApi({ apiKey: wrongSecret ?? apiKey, domain, baseUrl }),
  secret: apiKey,
  messages: {
    wrongSecret: "Forbidden",
    refused:
      "Domain mg.example.com is not allowed to send: Free accounts are for test purposes only. Please upgrade or add the address to authorized recipients in Account Settings.",
  },
});

describe("mailgun mail API", () => {
  it("names the domain Mailgun does not know", async () => {
    const fake = await startMailgunFake(apiKey, domain);
    const warnings: unknown[] = [];
    try {
      const mailer = apiMailer({
        provider: mailgunApi({ apiKey, domain: "other.example.com", baseUrl: fake.url }),
        senderName: "",
        adminEmail: "auth@example.com",
        siteUrl: "https://app.example.com",
        subjects: TEST_SUBJECTS,
        warn: (fields) => warnings.push(fields),
      });
      await expect(mailer.send({ kind: "recovery", to: "x@example.com" })).rejects.toMatchObject({
        code: "email_send_failed",
      });
      expect(warnings).toMatchObject([
        { mail_api_status: 404, mail_api_error: "Domain not found: other.example.com" },
      ]);
    } finally {
      await fake.close();
    }
  });
});
