import { describe, expect, it } from "vitest";
import { smsSendFailed } from "./sms-failure.js";

describe("smsSendFailed", () => {
  it("blanks out every credential a gateway echoes back", () => {
    const error = smsSendFailed("vonage", "Bad key k-123 with secret s-456", ["s-456", "k-123"]);
    expect(error).toMatchObject({ failure: "smsSendFailed", code: "sms_send_failed" });
    expect(error.message).toBe("Error sending SMS: vonage: Bad key [redacted] with secret [redacted]");
  });

  it("says something even when the gateway gave no words", () => {
    expect(smsSendFailed("textlocal", "  ", []).message).toBe("Error sending SMS: textlocal: unknown error");
  });
});
