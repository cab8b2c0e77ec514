import { describe, expect, it } from "vitest";
import { normalizePhone } from "./phone.js";

describe("normalizePhone", () => {
  it("stores digits without + or spaces", () => {
    expect(normalizePhone("+1 555 123 4567")).toEqual({ ok: true, value: "15551234567" });
    expect(normalizePhone("4915112345678")).toEqual({ ok: true, value: "4915112345678" });
    expect(normalizePhone(" +44 20 7946 0958 ")).toEqual({ ok: true, value: "442079460958" });
  });

  it("accepts 2 to 15 digits", () => {
    expect(normalizePhone("12")).toMatchObject({ ok: true });
    expect(normalizePhone(`+1${"2".repeat(14)}`)).toMatchObject({ ok: true });
    expect(normalizePhone(`+1${"2".repeat(15)}`)).toMatchObject({ ok: false });
    expect(normalizePhone("1")).toMatchObject({ ok: false });
  });

  it("refuses anything that is not E.164 with GoTrue's message", () => {
    for (const input of [
      "",
      "+",
      "0123456789",
      "++15551234567",
      "15551234567-invalid",
      "+1-555-123",
      "(555) 1234",
      "1555\t1234",
    ]) {
      const result = normalizePhone(input);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error).toMatchObject({
          code: "validation_failed",
          message: "Invalid phone number format (E.164 required)",
        });
      }
    }
  });
});
