import { describe, expect, it } from "vitest";
import { logSms } from "./log-sms.js";

describe("logSms", () => {
  it("writes one line per text with its number, body and code, and answers a message id of its own", async () => {
    const lines: { fields: Record<string, unknown>; msg: string }[] = [];
    const sms = logSms((fields, msg) => lines.push({ fields, msg }));
    const first = await sms.send("15550002222", "Your code is 123456", {
      otp: "123456",
      user: {} as never,
    });
    const second = await sms.send("15550002222", "Your code is 654321");
    expect(lines).toHaveLength(2);
    expect(lines[0]?.fields).toEqual({
      sms_to: "+15550002222",
      sms_body: "Your code is 123456",
      sms_code: "123456",
      sms_message_id: first.messageId,
    });
    expect(lines[0]?.msg).toBe(
      "development SMS to +15550002222: not sent, written to the log (SMS_PROVIDER=log)",
    );
    // Without a context (an MFA challenge's text) the body still holds the code.
    expect(lines[1]?.fields).not.toHaveProperty("sms_code");
    expect(second.messageId).toMatch(/^log-[0-9a-f-]{36}$/);
    expect(second.messageId).not.toBe(first.messageId);
  });
});
