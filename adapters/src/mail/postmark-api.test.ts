import { describe, expect, it } from "vitest";
import { describeMailApi, TEST_SUBJECTS } from "../testing/mail-api/mail-api-suite.js";
import { startPostmarkFake } from "../testing/mail-api/providers.js";
import { apiMailer } from "./mail-api.js";
import { postmarkApi } from "./postmark-api.js";

const serverToken = "pm-server-token-0123456789";

describeMailApi({
  name: "postmark",
  start: () => startPostmarkFake(serverToken),
  provider: ({ baseUrl, wrongSecret }) => postmarkApi({ serverToken: wrongSecret ?? serverToken, baseUrl }),
  secret: serverToken,
  messages: {
    wrongSecret:
      "The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token. (code 10)",
    refused:
      "You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: [redacted]. (code 406)",
  },
});

describe("postmark mail API", () => {
  it("sends through the configured message stream, refused at once when the server has no such stream", async () => {
    const fake = await startPostmarkFake(serverToken);
    const warnings: string[] = [];
    try {
      const mailer = apiMailer({
        provider: postmarkApi({ serverToken, baseUrl: fake.url, messageStream: "broadcast" }),
        senderName: "Example",
        adminEmail: "auth@example.com",
        siteUrl: "https://app.example.com",
        subjects: TEST_SUBJECTS,
        warn: (fields) => warnings.push(String(fields.mail_api_error)),
      });
      await expect(mailer.send({ kind: "invite", to: "new@example.com" })).rejects.toMatchObject({
        code: "email_send_failed",
        message: "Error sending invite email",
      });
      expect(warnings).toEqual(["The message stream 'broadcast' does not exist on this server. (code 1235)"]);
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });
});
