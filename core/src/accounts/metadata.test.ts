import { describe, expect, it } from "vitest";
import { mergeMetadata } from "./metadata.js";

describe("mergeMetadata", () => {
  it("adds and replaces keys shallowly", () => {
    const merged = mergeMetadata({ a: 1, nested: { x: 1, y: 2 } }, { b: 2, nested: { x: 3 } });
    expect(merged).toEqual({ a: 1, b: 2, nested: { x: 3 } });
  });

  it("deletes keys whose new value is null", () => {
    expect(mergeMetadata({ a: 1, b: 2 }, { a: null, c: null })).toEqual({ b: 2 });
  });

  it("keeps falsy non-null values", () => {
    expect(mergeMetadata({ a: 1, b: 2, c: 3 }, { a: 0, b: "", c: false })).toEqual({ a: 0, b: "", c: false });
  });

  it("does not modify its inputs", () => {
    const current = { a: 1, b: 2 };
    const patch = { a: null, c: 3 };
    mergeMetadata(current, patch);
    expect(current).toEqual({ a: 1, b: 2 });
    expect(patch).toEqual({ a: null, c: 3 });
  });

  it("treats __proto__ from a JSON body as an ordinary key", () => {
    const patch = JSON.parse('{"__proto__": {"is_admin": true}, "name": "eve"}') as Record<string, unknown>;
    const merged = mergeMetadata({}, patch);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect((merged as Record<string, unknown>).is_admin).toBeUndefined();
    expect(Object.keys(merged)).toEqual(["__proto__", "name"]);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(patch);
    expect(({} as Record<string, unknown>).is_admin).toBeUndefined();
  });

  it("carries and deletes a stored __proto__ key", () => {
    const current = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>;
    expect(Object.keys(mergeMetadata(current, { b: 2 }))).toEqual(["__proto__", "a", "b"]);
    expect(Object.keys(mergeMetadata(current, JSON.parse('{"__proto__": null}')))).toEqual(["a"]);
  });
});
