import { describe, expect, it } from "vitest";
import { logMailer } from "./log-mailer.js";

describe("logMailer", () => {
  it("writes one line per mail with its link and code", async () => {
    const lines: { fields: Record<string, unknown>; msg: string }[] = [];
    const mailer = logMailer((fields, msg) => lines.push({ fields, msg }));
    await mailer.send({
      kind: "confirmation",
      to: "a@example.com",
      confirmationUrl: "http://x/verify?token=t",
      token: "123456",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toMatchObject({
      mail_kind: "confirmation",
      mail_to: "a@example.com",
      mail_link: "http://x/verify?token=t",
      mail_code: "123456",
    });
    expect(lines[0]?.msg).toContain("no SMTP_HOST");
  });
});
