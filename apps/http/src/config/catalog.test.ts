import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configVariables } from "./catalog.js";
import { EXTERNAL_PROVIDERS } from "./types.js";
import type { ConfigVariable } from "./variable.js";

const docs = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");

/** Table rows of the docs, as trimmed cells (Biome pads the columns). */
const rows = docs
  .split("\n")
  .filter((line) => line.trim().startsWith("|"))
  .map((line) =>
    line
      .trim()
      .slice(1, -1)
      .split("|")
      .map((cell) => cell.trim()),
  );

const code = (text: string) => `\`${text}\``;

/** The cells the docs must show for a variable, in the order Variable | Type | Default | Required | Meaning. */
function expectedRow(variable: ConfigVariable): string[] {
  const fallback =
    variable.default === undefined
      ? (variable.computedDefault ?? "—")
      : variable.default === ""
        ? "empty"
        : code(variable.default);
  const also =
    variable.aliases.length > 0 ? ` Also read as ${variable.aliases.map(code).join(", then ")}.` : "";
  return [
    code(variable.name),
    variable.type,
    fallback,
    variable.required.replace(/AUTHSVC_[A-Z0-9_]+/g, code),
    `${variable.description}${also}`,
  ];
}

const PROVIDER_GROUP = "External OAuth providers";

describe("README.md, Configuration", () => {
  it("shows every variable, with the type, default, requirement and meaning the code has", () => {
    for (const variable of configVariables.filter((v) => v.group !== PROVIDER_GROUP)) {
      // Other tables (embedded defaults, aliases) may also start with the name; one row must match.
      const candidates = rows.filter((cells) => cells[0] === code(variable.name));
      expect(candidates, variable.name).toContainEqual(expectedRow(variable));
    }
  });

  it("lists the five variables of every OAuth provider", () => {
    for (const id of EXTERNAL_PROVIDERS) {
      const names = ["ENABLED", "CLIENT_ID", "SECRET", "REDIRECT_URI", "URL"].map(
        (setting) => `AUTHSVC_EXTERNAL_${id.toUpperCase()}_${setting}`,
      );
      expect(rows).toContainEqual([id, ...names.map(code)]);
    }
    const providerVariables = configVariables.filter((v) => v.group === PROVIDER_GROUP);
    expect(providerVariables).toHaveLength(EXTERNAL_PROVIDERS.length * 5);
  });

  it("names no variable that the code does not read", () => {
    const known = new Set(configVariables.flatMap((v) => [v.name, ...v.aliases]));
    // Names ending in "_" are family prefixes such as `AUTHSVC_EXTERNAL_<PROVIDER>_ENABLED`.
    const mentioned = [...docs.matchAll(/\bAUTHSVC_[A-Z0-9_]+/g)]
      .map(([name]) => name)
      .filter((n) => !n.endsWith("_"));
    expect(mentioned.length).toBeGreaterThan(configVariables.length);
    expect(mentioned.filter((name) => !known.has(name))).toEqual([]);
  });

  it("mentions every unprefixed alias", () => {
    const aliases = configVariables.flatMap((v) => v.aliases).filter((name) => !name.startsWith("AUTHSVC_"));
    expect(aliases.sort()).toEqual(["API_EXTERNAL_URL", "DATABASE_URL", "LOG_LEVEL", "PORT"]);
    for (const alias of aliases) expect(docs).toContain(code(alias));
  });
});

describe("configVariables", () => {
  it("has unique names, each with the AUTHSVC_ prefix", () => {
    const names = configVariables.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => !name.startsWith("AUTHSVC_"))).toEqual([]);
  });

  it("marks credentials as secret", () => {
    const secrets = configVariables.filter((v) => v.secret).map((v) => v.name);
    expect(secrets).toEqual(
      expect.arrayContaining([
        "AUTHSVC_JWT_SECRET",
        "AUTHSVC_OPERATOR_TOKEN",
        "AUTHSVC_DB_DATABASE_URL",
        "AUTHSVC_SMTP_PASS",
        "AUTHSVC_SECURITY_CAPTCHA_SECRET",
        "AUTHSVC_EXTERNAL_GITHUB_SECRET",
        "AUTHSVC_SMS_TWILIO_AUTH_TOKEN",
        "AUTHSVC_SMS_MESSAGEBIRD_ACCESS_KEY",
        "AUTHSVC_SMS_TEXTLOCAL_API_KEY",
        "AUTHSVC_SMS_VONAGE_API_KEY",
        "AUTHSVC_SMS_VONAGE_API_SECRET",
      ]),
    );
    expect(secrets).not.toContain("AUTHSVC_EXTERNAL_GITHUB_CLIENT_ID");
    expect(secrets).not.toContain("AUTHSVC_SMTP_USER");
  });
});
