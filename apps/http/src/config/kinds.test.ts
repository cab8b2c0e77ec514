import * as v from "valibot";
import { describe, expect, it } from "vitest";
import * as k from "./kinds.js";

/** The parsed value, or the first problem's message. */
function parse<T>(kind: k.Kind<T>, raw: string): { value: T } | { error: string } {
  const result = v.safeParse(kind.schema, raw, { abortPipeEarly: true });
  return result.success ? { value: result.output } : { error: result.issues[0].message };
}

describe("boolean", () => {
  it.each([
    ["true", true],
    ["TRUE", true],
    [" yes ", true],
    ["On", true],
    ["1", true],
    ["false", false],
    ["No", false],
    ["OFF", false],
    ["0", false],
  ])("reads %j as %s", (raw, expected) => {
    expect(parse(k.boolean, raw)).toEqual({ value: expected });
  });

  it.each(["maybe", "2", "t", "y", "enabled"])("refuses %j", (raw) => {
    expect(parse(k.boolean, raw)).toEqual({ error: "expected true or false (or 1/0, yes/no, on/off)" });
  });
});

describe("whole numbers", () => {
  it("reads digits, ignoring surrounding blanks", () => {
    expect(parse(k.wholeNumber(), " 42 ")).toEqual({ value: 42 });
  });

  it.each(["-1", "3.5", "1e3", "0x10", "ten", "4 2"])("refuses %j", (raw) => {
    expect(parse(k.wholeNumber(), raw)).toEqual({ error: "expected a whole number" });
  });

  it("enforces ranges at both ends", () => {
    const otpLength = k.wholeNumber({ min: 6, max: 10 });
    expect(parse(otpLength, "6")).toEqual({ value: 6 });
    expect(parse(otpLength, "10")).toEqual({ value: 10 });
    expect(parse(otpLength, "5")).toEqual({ error: "expected a whole number (6–10)" });
    expect(parse(otpLength, "11")).toEqual({ error: "expected a whole number (6–10)" });
  });

  it("bounds ports to 0–65535, or 1–65535 where 0 makes no sense", () => {
    expect(parse(k.port(), "0")).toEqual({ value: 0 });
    expect(parse(k.port(), "65535")).toEqual({ value: 65535 });
    expect(parse(k.port(), "65536")).toEqual({ error: "expected a whole number (0–65535)" });
    expect(parse(k.port(1), "0")).toEqual({ error: "expected a whole number (1–65535)" });
  });

  it("takes seconds as plain digits only", () => {
    expect(parse(k.seconds(), "900")).toEqual({ value: 900 });
    expect(parse(k.seconds(), "15m")).toEqual({ error: "expected a whole number of seconds" });
    expect(parse(k.seconds({ min: 1 }), "0")).toEqual({
      error: "expected a whole number of seconds (at least 1)",
    });
  });
});

describe("durations", () => {
  it.each([
    ["10", 10_000],
    ["90s", 90_000],
    ["15m", 900_000],
    ["1h30m", 5_400_000],
    ["250ms", 250],
    ["1.5s", 1500],
    ["1500us", 2],
    ["0", 0],
  ])("reads %j as %d ms", (raw, ms) => {
    expect(parse(k.duration(), raw)).toEqual({ value: ms });
  });

  it.each(["soon", "10 s", "1d", "-5s", "s", "1h-30m"])("refuses %j", (raw) => {
    expect(parse(k.duration(), raw)).toEqual({
      error: "expected a duration such as 10s, 1m30s or 250ms, or a whole number of seconds",
    });
  });

  it("enforces a minimum where zero would disable a timeout", () => {
    expect(parse(k.duration(1), "0s")).toEqual({ error: "expected a duration of at least 1ms" });
  });
});

describe("lists", () => {
  it("trims items and drops empty ones", () => {
    expect(parse(k.list, " a, b ,,c , ")).toEqual({ value: ["a", "b", "c"] });
    expect(parse(k.list, ",")).toEqual({ value: [] });
  });

  it("checks every item of a header list", () => {
    expect(parse(k.headerList, "X-Trace-Id, x-tenant")).toEqual({ value: ["X-Trace-Id", "x-tenant"] });
    expect(parse(k.headerList, "X-Ok, Not Ok")).toEqual({
      error: "expected comma-separated HTTP header names",
    });
  });
});

describe("address ranges", () => {
  it("takes addresses and CIDR ranges of either family", () => {
    expect(parse(k.addressRangeList, "10.0.0.0/8, 192.0.2.1,2001:db8::/32")).toEqual({
      value: ["10.0.0.0/8", "192.0.2.1", "2001:db8::/32"],
    });
  });

  it.each(["10.0.0.0/33", "2001:db8::/129", "proxy.example.com", "10.0.0.0/8/1", "10.0.0.0/x"])(
    "refuses %s",
    (raw) => {
      expect(parse(k.addressRangeList, raw)).toEqual({
        error: "expected comma-separated IP addresses or CIDR ranges (10.0.0.0/8, 2001:db8::/32)",
      });
    },
  );
});

describe("URLs", () => {
  it("accepts absolute http and https URLs as given", () => {
    expect(parse(k.url, "https://app.example.com/")).toEqual({ value: "https://app.example.com/" });
    expect(parse(k.url, " http://localhost:3000 ")).toEqual({ value: "http://localhost:3000" });
  });

  it.each(["app.example.com", "/verify", "ftp://example.com", "https://", "mailto:a@b.c"])(
    "refuses %j",
    (raw) => {
      expect(parse(k.url, raw)).toEqual({ error: "expected an absolute http(s) URL" });
    },
  );

  it("takes postgres URLs for the database only", () => {
    expect(parse(k.postgresUrl, "postgresql://u:p@db/auth")).toEqual({ value: "postgresql://u:p@db/auth" });
    expect(parse(k.postgresUrl, "mysql://u:p@db/auth")).toEqual({
      error: "expected a postgres:// or postgresql:// connection URL",
    });
  });

  it("takes several hosts, each checked, as a replicated pair is named", () => {
    const pair = "postgres://u:p%40ss@db1:5432,db2:5433/auth?target_session_attrs=read-write";
    expect(parse(k.postgresUrl, pair)).toEqual({ value: pair });
    expect(parse(k.postgresUrl, "postgresql://db1,db2/auth")).toEqual({ value: "postgresql://db1,db2/auth" });
    for (const raw of [
      "postgres://u:p@db1:5432,/auth",
      "postgres://db1:5432,db2:port/auth",
      "postgres://,/auth",
    ]) {
      expect(parse(k.postgresUrl, raw)).toEqual({
        error: "expected a postgres:// or postgresql:// connection URL",
      });
    }
  });

  it("takes a path or an absolute URL for mail links", () => {
    expect(parse(k.urlPath, "/auth/v1/verify")).toEqual({ value: "/auth/v1/verify" });
    expect(parse(k.urlPath, "https://example.com/verify")).toEqual({ value: "https://example.com/verify" });
    expect(parse(k.urlPath, "verify")).toEqual({
      error: "expected a path starting with / or an absolute http(s) URL",
    });
  });
});

describe("enumerations", () => {
  const level = k.oneOf(["panic", "fatal", "error", "warn", "info", "debug"]);

  it("accepts any case and yields the canonical word", () => {
    expect(parse(level, "DEBUG")).toEqual({ value: "debug" });
  });

  it("lists the choices when refusing", () => {
    expect(parse(level, "loud")).toEqual({ error: "expected one of panic, fatal, error, warn, info, debug" });
  });
});

describe("identifiers, hosts, headers and addresses", () => {
  it.each(["auth", "_auth2", "a".repeat(63)])("accepts the SQL identifier %j", (raw) => {
    expect(parse(k.sqlIdentifier, raw)).toEqual({ value: raw });
  });

  it.each(["Auth", "2auth", "auth-schema", 'auth"; drop table users; --', "a".repeat(64)])(
    "refuses the SQL identifier %j",
    (raw) => {
      expect(parse(k.sqlIdentifier, raw)).toHaveProperty("error");
    },
  );

  it.each(["0.0.0.0", "mail.example.com", "::1", "[::1]", "smtp_relay"])("accepts the host %j", (raw) => {
    expect(parse(k.host, raw)).toEqual({ value: raw });
  });

  it.each(["smtp://mail.example.com", "mail.example.com:587", "localhost:25", "two words"])(
    "refuses the host %j",
    (raw) => {
      expect(parse(k.host, raw)).toEqual({ error: "expected a host name or IP address" });
    },
  );

  it("checks header names and email addresses", () => {
    expect(parse(k.headerName, "X-Request-Id")).toEqual({ value: "X-Request-Id" });
    expect(parse(k.headerName, "X Request")).toEqual({ error: "expected an HTTP header name" });
    expect(parse(k.email, "noreply@example.com")).toEqual({ value: "noreply@example.com" });
    expect(parse(k.email, "noreply")).toEqual({ error: "expected an email address" });
  });
});

describe("secrets", () => {
  it("keeps the value byte for byte, surrounding blanks included", () => {
    expect(parse(k.secret(), "  s3cr3t ")).toEqual({ value: "  s3cr3t " });
  });

  it("enforces a minimum length", () => {
    expect(parse(k.secret(16), "0123456789abcde")).toEqual({ error: "expected at least 16 characters" });
    expect(parse(k.secret(16), "0123456789abcdef")).toEqual({ value: "0123456789abcdef" });
  });
});

describe("password character sets", () => {
  it.each([
    ["abc:ABC:0123456789:\\:!", ["abc", "ABC", "0123456789", ":!"]],
    ["abc", ["abc"]],
    ["a::b:", ["a", "b"]],
    ["\\:", [":"]],
    ["x\\:y:z", ["x:y", "z"]],
    ["a\\b:c", ["a\\b", "c"]],
    ["ab\\", ["ab\\"]],
    ["", []],
  ])("splits %j into %j", (raw, sets) => {
    expect(parse(k.characterSets, raw)).toEqual({ value: sets });
  });
});
