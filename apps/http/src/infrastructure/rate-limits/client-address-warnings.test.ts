import { describe, expect, it } from "vitest";
import { loadConfig } from "../../composition/config.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};

function warningsOf(extra: Record<string, string>): string[] {
  const result = loadConfig({ ...production, ...extra });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.warnings;
}

describe("warnings about the client address at start", () => {
  it("none while the per-IP limits are off", () => {
    expect(warningsOf({})).toEqual([]);
  });

  it("a header other than X-Forwarded-For is named as not read, with where the address comes from", () => {
    const warnings = warningsOf({
      AUTHSVC_RATE_LIMIT_HEADER: "CF-Connecting-IP",
      AUTHSVC_API_TRUSTED_PROXY_HOPS: "1",
    });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^AUTHSVC_RATE_LIMIT_HEADER names CF-Connecting-IP, which is not read: .*X-Forwarded-For past AUTHSVC_API_TRUSTED_PROXY_HOPS/,
      ),
    ]);
  });

  it("X-Forwarded-For, in any case, behind a trusted proxy: no warning", () => {
    expect(
      warningsOf({ AUTHSVC_RATE_LIMIT_HEADER: "x-forwarded-for", AUTHSVC_API_TRUSTED_PROXY_HOPS: "1" }),
    ).toEqual([]);
    expect(
      warningsOf({ AUTHSVC_RATE_LIMIT_HEADER: "X-Forwarded-For", AUTHSVC_API_TRUSTED_PROXIES: "10.0.0.0/8" }),
    ).toEqual([]);
  });

  it("limits on with no proxy trusted: every client behind a proxy would count as the proxy", () => {
    expect(warningsOf({ AUTHSVC_RATE_LIMIT_HEADER: "X-Forwarded-For" })).toEqual([
      expect.stringContaining("AUTHSVC_API_TRUSTED_PROXY_HOPS is 0"),
    ]);
  });
});

describe("a request-limit store without the limits", () => {
  it("Redis set while AUTHSVC_RATE_LIMIT_HEADER is unset is warned about: nothing is counted in it", () => {
    expect(warningsOf({ AUTHSVC_RATE_LIMIT_REDIS_URL: "redis://cache.internal:6379" })).toEqual([
      "AUTHSVC_RATE_LIMIT_REDIS_URL is set but AUTHSVC_RATE_LIMIT_HEADER is not: the per-IP request limits are off, so nothing is counted in Redis; set AUTHSVC_RATE_LIMIT_HEADER (e.g. X-Forwarded-For) to turn them on",
    ]);
    // Named as the operator spelt it, when it came by an alias.
    expect(warningsOf({ REDIS_URL: "redis://cache.internal:6379" })).toEqual([
      expect.stringMatching(/^REDIS_URL is set but AUTHSVC_RATE_LIMIT_HEADER is not/),
    ]);
  });

  it("with the OAuth server on, Redis counts its authorization starts only, and says so", () => {
    expect(
      warningsOf({
        AUTHSVC_RATE_LIMIT_REDIS_URL: "redis://cache.internal:6379",
        AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      }),
    ).toContainEqual(
      "AUTHSVC_RATE_LIMIT_REDIS_URL is set but AUTHSVC_RATE_LIMIT_HEADER is not: the per-IP request limits are off, so only GET /oauth/authorize (AUTHSVC_RATE_LIMIT_OAUTH_AUTHORIZE) is counted in Redis; set AUTHSVC_RATE_LIMIT_HEADER (e.g. X-Forwarded-For) to turn them on",
    );
  });

  it("Redis with the limits on: no such warning", () => {
    expect(
      warningsOf({
        AUTHSVC_RATE_LIMIT_REDIS_URL: "redis://cache.internal:6379",
        AUTHSVC_RATE_LIMIT_HEADER: "X-Forwarded-For",
        AUTHSVC_API_TRUSTED_PROXY_HOPS: "1",
      }),
    ).toEqual([]);
  });
});
