import { describe, expect, it } from "vitest";
import { hasLoneSurrogate, isStorableText, storableText } from "./storable-text.js";

describe("storable text", () => {
  it("finds lone surrogates, high or low, but not pairs", () => {
    expect(hasLoneSurrogate("a\ud800")).toBe(true);
    expect(hasLoneSurrogate("\udc00b")).toBe(true);
    expect(hasLoneSurrogate("\udc00\ud800")).toBe(true);
    expect(hasLoneSurrogate("😀 ok")).toBe(false);
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText("plain ✓")).toBe(true);
  });

  it("replaces NUL and lone surrogates by U+FFFD and keeps pairs", () => {
    expect(storableText("a\ud800b\u0000c😀\udfff")).toBe("a\ufffdb\ufffdc😀\ufffd");
    expect(storableText("fine")).toBe("fine");
  });
});
