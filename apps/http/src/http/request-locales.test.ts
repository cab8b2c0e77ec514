import { describe, expect, it } from "vitest";
import { requestLocales } from "./request-locales.js";

describe("requestLocales", () => {
  it("puts the locale parameter first, then Accept-Language by q-value, order breaking ties", () => {
    expect(requestLocales("fr", "de-CH, es;q=0.5, de;q=0.9, en;q=0.5")).toEqual([
      "fr",
      "de-CH",
      "de",
      "es",
      "en",
    ]);
  });

  it("leaves out *, q=0, malformed tags and repeats, and keeps at most eight", () => {
    expect(requestLocales("../etc", "*, it;q=0, <script>, fr, fr, en-US;q=abc")).toEqual(["fr"]);
    const many = Array.from({ length: 20 }, (_, i) => `x${String.fromCharCode(97 + i)}`).join(",");
    expect(requestLocales(undefined, many)).toHaveLength(8);
    expect(requestLocales(undefined, undefined)).toEqual([]);
  });
});
