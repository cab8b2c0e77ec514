import { describe, expect, it } from "vitest";
import { describeMailApi, TEST_SUBJECTS } from "../testing/mail-api/mail-api-suite.js";
import { startSesFake } from "../testing/mail-api/ses.js";
import { apiMailer } from "./mail-api.js";
import { sesApi } from "./ses-api.js";

const credentials = {
  region: "eu-west-1",
  accessKeyId: "AKIAEXAMPLE0123456",
  secretAccessKey: "ses-secret-access-key-0123456789",
};

describeMailApi({
  name: "ses",
  start: () => startSesFake(credentials),
  provider: ({ baseUrl, wrongSecret }) =>
    sesApi({ ...credentials, secretAccessKey: wrongSecret ?? credentials.secretAccessKey, baseUrl }),
  secret: credentials.secretAccessKey,
  messages: {
    wrongSecret:
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. (SignatureDoesNotMatch)",
    refused:
      "Email address is not verified. The following identities failed the check in region EU-WEST-1: [redacted] (MessageRejected)",
  },
});

describe("ses mail API", () => {
  const mailerFor = (baseUrl: string, region: string, warnings: unknown[]) =>
    apiMailer({
      provider: sesApi({ ...credentials, region, baseUrl, configurationSet: "auth-mail" }),
      senderName: "Example",
      adminEmail: "auth@example.com",
      siteUrl: "https://app.example.com",
      subjects: TEST_SUBJECTS,
      warn: (fields) => warnings.push(fields),
    });

  it("signs for the configured region and names the configuration set", async () => {
    const fake = await startSesFake(credentials);
    try {
      await mailerFor(fake.url, "eu-west-1", []).send({
        kind: "reauthentication",
        to: "a@example.com",
        token: "123456",
      });
      expect(fake.mails).toHaveLength(1);
      expect(JSON.parse(fake.requests[0]?.body ?? "{}")).toMatchObject({ ConfigurationSetName: "auth-mail" });
    } finally {
      await fake.close();
    }
  });

  it("is refused when signed for another region", async () => {
    const fake = await startSesFake(credentials);
    const warnings: unknown[] = [];
    try {
      await expect(
        mailerFor(fake.url, "us-east-1", warnings).send({ kind: "reauthentication", to: "a@example.com" }),
      ).rejects.toMatchObject({ code: "email_send_failed" });
      expect(warnings).toMatchObject([
        { mail_api_status: 403, mail_api_error: expect.stringContaining("(InvalidSignatureException)") },
      ]);
    } finally {
      await fake.close();
    }
  });
});
