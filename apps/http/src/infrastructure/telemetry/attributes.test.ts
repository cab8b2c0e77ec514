import type { Span } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { hashAttributes } from "./hash-attributes.js";
import { withoutQuery } from "./outbound.js";
import { parseResourceAttributes } from "./resource.js";

describe("hashAttributes", () => {
  it("reads argon2's public parameters and the raw hash length, as the reference labels them", () => {
    const hash =
      "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$SqlVijFGiPG+935vDSGEsA7bXFMSo2nNrpNFg7kbb+c";
    expect(hashAttributes(hash)).toEqual({ alg: "argon2id", v: "19", m: 19456, t: 2, p: 1, len: 32 });
  });

  it("reads bcrypt's cost, and names nothing else", () => {
    expect(hashAttributes("$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234")).toEqual({
      alg: "bcrypt",
      bcrypt_cost: 10,
    });
    expect(hashAttributes("plain-text?")).toEqual({ alg: "unknown" });
  });
});

describe("parseResourceAttributes", () => {
  it("reads key=value pairs, percent-decoded, skipping malformed entries", () => {
    expect(
      parseResourceAttributes("deployment.environment=prod, team=auth%20core,broken,=x,bad=%E0"),
    ).toEqual({
      "deployment.environment": "prod",
      team: "auth core",
    });
    expect(parseResourceAttributes(undefined)).toEqual({});
  });
});

describe("withoutQuery", () => {
  it("records an outbound URL without its query string", () => {
    const set: Record<string, unknown> = {};
    const span = { setAttribute: (k: string, v: unknown) => (set[k] = v) } as unknown as Span;
    withoutQuery(span, { origin: "https://cdn.example.com", path: "/invite.html?X-Amz-Signature=abc" });
    expect(set).toEqual({ "url.full": "https://cdn.example.com/invite.html", "url.query": "REDACTED" });
    const untouched: Record<string, unknown> = {};
    const plain = { setAttribute: (k: string, v: unknown) => (untouched[k] = v) } as unknown as Span;
    withoutQuery(plain, { origin: "https://api.twilio.com", path: "/2010-04-01/Messages.json" });
    expect(untouched).toEqual({});
  });
});
