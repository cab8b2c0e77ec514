import { describe, expect, it } from "vitest";
import { tooSoon } from "./frequency.js";

const sentAt = new Date("2026-01-01T00:00:00Z");
const after = (ms: number) => new Date(sentAt.getTime() + ms);

describe("tooSoon", () => {
  it("allows a first message and one after the gap", () => {
    expect(tooSoon(null, 60, sentAt, "email")).toBeNull();
    expect(tooSoon(sentAt, 60, after(60_000), "email")).toBeNull();
  });

  it("refuses an email sooner with 429 and the whole seconds left, rounded up", () => {
    expect(tooSoon(sentAt, 60, after(10_500), "email")).toMatchObject({
      code: "over_email_send_rate_limit",
      message: "For security purposes, you can only request this after 50 seconds.",
    });
    expect(tooSoon(sentAt, 60, after(59_999), "email")?.message).toContain("after 1 seconds.");
  });

  it("refuses an SMS with its own code", () => {
    expect(tooSoon(sentAt, 60, sentAt, "sms")).toMatchObject({
      code: "over_sms_send_rate_limit",
      message: "For security purposes, you can only request this after 60 seconds.",
    });
  });
});
