import { describe, expect, it } from "vitest";
import { inFamily, knownNames, loadConfig } from "../composition/config.js";
import { editDistance, nearestName, unknownNameWarnings } from "./unknown-names.js";

describe("editDistance", () => {
  it.each([
    ["SECRET", "SECRET", 0],
    ["SECERT", "SECRET", 1],
    ["AUTO_CONFIRM", "AUTOCONFIRM", 1],
    ["", "ABC", 3],
    ["ABC", "", 3],
    ["KITTEN", "SITTING", 3],
  ])("%s → %s is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe("nearestName", () => {
  it("finds the variable a misspelt name meant", () => {
    expect(nearestName("AUTHSVC_MAILER_AUTO_CONFIRM", knownNames())).toBe("AUTHSVC_MAILER_AUTOCONFIRM");
    expect(nearestName("AUTHSVC_JWT_SECERT", knownNames())).toBe("AUTHSVC_JWT_SECRET");
    expect(nearestName("AUTHSVC_SITEURL", knownNames())).toBe("AUTHSVC_SITE_URL");
  });

  it("suggests nothing for a name far from every variable, or a short one", () => {
    expect(nearestName("AUTHSVC_COMPLETELY_DIFFERENT", knownNames())).toBeUndefined();
    expect(nearestName("AUTHSVC_X", ["AUTHSVC_Y"])).toBeUndefined();
  });
});

describe("unknownNameWarnings", () => {
  const warnings = (vars: Record<string, string | undefined>) =>
    unknownNameWarnings(vars, knownNames(), inFamily);

  it("names the nearest variable of a misspelt AUTHSVC_ name, never its value", () => {
    const found = warnings({ AUTHSVC_JWT_SECERT: "the-secret-value", AUTHSVC_MAILER_AUTO_CONFIRM: "true" });
    expect(found).toEqual([
      "AUTHSVC_JWT_SECERT is not a variable of this server and is ignored; did you mean AUTHSVC_JWT_SECRET?",
      "AUTHSVC_MAILER_AUTO_CONFIRM is not a variable of this server and is ignored; did you mean AUTHSVC_MAILER_AUTOCONFIRM?",
    ]);
    expect(found.join("\n")).not.toContain("the-secret-value");
  });

  it("names the AUTHSVC_ equivalent of a GOTRUE_ name, or says there is none", () => {
    expect(
      warnings({ GOTRUE_JWT_SECRET: "s", GOTRUE_SMTP_HOST: "mail", GOTRUE_SOMETHING_ONLY_GOTRUE_HAS: "1" }),
    ).toEqual([
      "GOTRUE_JWT_SECRET is not read (GoTrue's name): set AUTHSVC_JWT_SECRET instead",
      "GOTRUE_SMTP_HOST is not read (GoTrue's name): set AUTHSVC_SMTP_HOST instead",
      "GOTRUE_SOMETHING_ONLY_GOTRUE_HAS is not read (GoTrue's name), and this server has no equivalent of it",
    ]);
  });

  it("names no look-alike for a GoTrue provider or gateway this server lacks (Twitter is not Twitch)", () => {
    expect(
      warnings({ GOTRUE_EXTERNAL_TWITTER_ENABLED: "true", GOTRUE_SMS_TWILIO_VERIFY_ACCOUNT_SID: "AC1" }),
    ).toEqual([
      "GOTRUE_EXTERNAL_TWITTER_ENABLED is not read (GoTrue's name), and this server has no equivalent of it",
      "GOTRUE_SMS_TWILIO_VERIFY_ACCOUNT_SID is not read (GoTrue's name), and this server has no equivalent of it",
    ]);
  });

  it("names no look-alike for a GoTrue setting this server lacks (LOG_FIELDS is not LOG_FILE)", () => {
    expect(
      warnings({
        GOTRUE_LOG_FIELDS: "a=b",
        GOTRUE_RATE_LIMIT_ANONYMOUS_USERS: "30",
        GOTRUE_JWT_KEY_ID: "k1",
      }),
    ).toEqual([
      "GOTRUE_LOG_FIELDS is not read (GoTrue's name), and this server has no equivalent of it",
      "GOTRUE_RATE_LIMIT_ANONYMOUS_USERS is not read (GoTrue's name), and this server has no equivalent of it",
      "GOTRUE_JWT_KEY_ID is not read (GoTrue's name), and this server has no equivalent of it",
    ]);
  });

  it("leaves known names, aliases, empty values, other prefixes and family members alone", () => {
    expect(
      warnings({
        AUTHSVC_JWT_SECRET: "s",
        DATABASE_URL: "postgres://x",
        AUTHSVC_JWT_SECERT: "",
        PATH: "/usr/bin",
        AUTHSVC_MAILER_SUBJECTS_BOGUS: "Hi",
      }),
    ).toEqual([]);
  });
});

describe("loadConfig warnings", () => {
  it("reports unknown names as warnings and still loads", () => {
    const result = loadConfig({
      AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
      AUTHSVC_SITE_URL: "https://app.example.com",
      AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
      AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
      AUTHSVC_MAILER_AUTO_CONFIRM: "true",
      GOTRUE_MAILER_AUTOCONFIRM: "true",
    });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.config.mailer.autoconfirm).toBe(false);
    expect(result.warnings).toEqual([
      "AUTHSVC_MAILER_AUTO_CONFIRM is not a variable of this server and is ignored; did you mean AUTHSVC_MAILER_AUTOCONFIRM?",
      "GOTRUE_MAILER_AUTOCONFIRM is not read (GoTrue's name): set AUTHSVC_MAILER_AUTOCONFIRM instead",
    ]);
  });
});

describe("loadConfig refusing a configuration", () => {
  it("gives the unknown-name warnings with the problems: the misspelt name is why the required one is missing", () => {
    const result = loadConfig({
      AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
      AUTHSVC_SITE_URL: "https://app.example.com",
      AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
      AUTHSVC_JWT_SECERT: "jwt-secret-for-tests-0123456789",
      GOTRUE_SMTP_HOST: "mail",
    });
    expect(result).toEqual({
      ok: false,
      problems: ["AUTHSVC_JWT_SECRET: required"],
      warnings: [
        "AUTHSVC_JWT_SECERT is not a variable of this server and is ignored; did you mean AUTHSVC_JWT_SECRET?",
        "GOTRUE_SMTP_HOST is not read (GoTrue's name): set AUTHSVC_SMTP_HOST instead",
      ],
    });
  });
});
