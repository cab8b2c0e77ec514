import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "./constant-time.js";

describe("constantTimeEqual", () => {
  it("is true only for identical strings", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "ab")).toBe(false);
    expect(constantTimeEqual("ab", "abc")).toBe(false);
    expect(constantTimeEqual("", "a")).toBe(false);
  });

  it("tells apart strings that differ only beyond the shorter length's zero padding", () => {
    expect(constantTimeEqual("a\u0000", "a")).toBe(false);
  });
});
