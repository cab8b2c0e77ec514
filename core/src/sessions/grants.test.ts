import { describe, expect, it } from "vitest";
import { ok } from "../kernel/index.js";
import { defineGrant, grantRegistry } from "./grants.js";
import { refreshTokenGrant } from "./refresh-session.js";
import { passwordGrant } from "./sign-in-password.js";

const echo = defineGrant("echo", async (_deps: unknown, input: string) => ok(input));
const other = defineGrant("other_grant", async (_deps: unknown, input: string) => ok(`${input}!`));

describe("grantRegistry", () => {
  it("finds each registered grant by its type", async () => {
    const registry = grantRegistry([echo, other]);
    expect(registry.lookup("echo")).toBe(echo);
    expect(registry.lookup("other_grant")).toBe(other);
    expect(await registry.lookup("other_grant")?.run(null, "hi")).toEqual(ok("hi!"));
    expect(registry.types).toEqual(["echo", "other_grant"]);
  });

  it("finds nothing for an absent, unknown or prototype-member type", () => {
    const registry = grantRegistry([echo]);
    for (const type of [undefined, "", "ECHO", "echo ", "constructor", "__proto__", "toString"]) {
      expect(registry.lookup(type)).toBeUndefined();
    }
  });

  it("refuses a type registered twice", () => {
    const again = defineGrant("echo", async (_deps: unknown, input: string) => ok(input));
    expect(() => grantRegistry([echo, again])).toThrow(/"echo" registered twice/);
  });

  it("refuses a name that is not a grant type", () => {
    for (const name of ["", "Password", "pass word", "1st", "a-b", "urn:", "urn:x", "urn:a:b c"]) {
      expect(() => defineGrant(name, async () => ok(null))).toThrow(/not a grant type name/);
    }
  });

  it("accepts an extension grant's URN (RFC 6749 §4.5)", () => {
    const type = "urn:ietf:params:oauth:grant-type:device_code";
    expect(defineGrant(type, async () => ok(null)).type).toBe(type);
  });

  it("names the sessions slice's grants as clients send them", () => {
    expect(grantRegistry([passwordGrant, refreshTokenGrant]).types).toEqual(["password", "refresh_token"]);
  });
});
