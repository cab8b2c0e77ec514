import { readdirSync, readFileSync } from "node:fs";
import { PROVIDER_DEFINITIONS } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { configVariables, loadConfig } from "../composition/config.js";
import { MODULES } from "../composition/modules.js";
import { familiesOf } from "./catalog.js";
import { renderExampleEnv, updateConfigurationDoc, variableRow } from "./docs/render.js";

const root = new URL("../../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const configurationDoc = read("docs/configuration.md");
const exampleEnv = read("example.env");
/** The files under `dir`, those of its folders included (docs/examples/authsvc.service). */
const filesUnder = (dir: string): string[] =>
  readdirSync(new URL(`${dir}/`, root), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  );
const allDocs = [read("README.md"), ...filesUnder("docs").map(read)];

/** Table rows of a Markdown text, as trimmed cells. */
const rowsOf = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.trim().startsWith("|"))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
const rows = rowsOf(configurationDoc);

const code = (text: string) => `\`${text}\``;
const PROVIDER_GROUP = "External OAuth providers";

describe("docs/configuration.md and example.env", () => {
  it("are what `npm run docs` renders from the catalogue (run it after changing a variable)", () => {
    expect(configurationDoc).toBe(updateConfigurationDoc(configurationDoc, configVariables()));
    expect(exampleEnv).toBe(renderExampleEnv(configVariables()));
  });

  it("show every variable, with the type, default, requirement and meaning the code has", () => {
    for (const variable of configVariables().filter((v) => v.group !== PROVIDER_GROUP)) {
      expect(rows, variable.name).toContainEqual(variableRow(variable));
    }
    expect(rows).toContainEqual([
      code("AUTHSVC_SECURITY_CAPTCHA_ENABLED"),
      "boolean",
      code("false"),
      "no",
      "Check `gotrue_meta_security.captcha_token` with the captcha provider on sign-up (anonymous too), password sign-in, `/otp`, `/magiclink`, `/recover` and `/resend`; callers with a service-role key are not checked.",
    ]);
  });

  it("list the five variables of every OAuth provider the adapters define", () => {
    const defined = Object.keys(PROVIDER_DEFINITIONS);
    for (const id of defined) {
      const names = ["ENABLED", "CLIENT_ID", "SECRET", "REDIRECT_URI", "URL"].map(
        (setting) => `AUTHSVC_EXTERNAL_${id.toUpperCase()}_${setting}`,
      );
      expect(rows).toContainEqual([id, ...names.map(code)]);
    }
    const providerVariables = configVariables().filter((v) => v.group === PROVIDER_GROUP);
    expect(providerVariables).toHaveLength(defined.length * 5);
  });

  it("mention every unprefixed alias", () => {
    const aliases = configVariables()
      .flatMap((v) => v.aliases)
      .filter((name) => !name.startsWith("AUTHSVC_"));
    expect(aliases.sort()).toEqual([
      "API_EXTERNAL_URL",
      "DATABASE_URL",
      "DEBUG",
      "LOG_LEVEL",
      "OTEL_EXPORTER_PROMETHEUS_HOST",
      "OTEL_EXPORTER_PROMETHEUS_PORT",
      "OTEL_RESOURCE_ATTRIBUTES",
      "PORT",
      "REDIS_URL",
    ]);
    for (const alias of aliases) expect(configurationDoc).toContain(code(alias));
  });

  it("example.env, uncommented, starts a production configuration at the documented defaults", () => {
    const assignments = exampleEnv
      .split("\n")
      .filter((line) => /^# AUTHSVC_[A-Z0-9_]+=/.test(line))
      .map((line) => line.slice(2).split("=") as [string, string]);
    expect(assignments.length).toBe(configVariables().filter((v) => v.group !== PROVIDER_GROUP).length);
    const result = loadConfig({
      ...Object.fromEntries(assignments),
      AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
      AUTHSVC_SITE_URL: "https://app.example.com",
      AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
      AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
    });
    expect(result.ok && result.config.mailer.subjects.magic_link).toBe("Your Magic Link");
  });
});

describe("the docs", () => {
  it("name no variable that the code does not read", () => {
    const known = new Set(configVariables().flatMap((v) => [v.name, ...v.aliases]));
    // Names ending in "_" are family prefixes such as `AUTHSVC_EXTERNAL_<PROVIDER>_ENABLED`.
    const mentioned = allDocs.flatMap((doc) =>
      [...doc.matchAll(/\bAUTHSVC_[A-Z0-9_]+/g)].map(([name]) => name).filter((n) => !n.endsWith("_")),
    );
    expect(mentioned.length).toBeGreaterThan(configVariables().length);
    // A family may name members by pattern (a mail kind's locales: `…_SUBJECTS_RECOVERY_FR`).
    const families = familiesOf(MODULES);
    const accepted = (name: string) =>
      families.some((f) => name.startsWith(`AUTHSVC_${f.prefix}`) && f.accepts?.(name) === true);
    expect(mentioned.filter((name) => !known.has(name) && !accepted(name))).toEqual([]);
  });
});

describe("configVariables", () => {
  it("has unique names, each with the AUTHSVC_ prefix", () => {
    const names = configVariables().map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => !name.startsWith("AUTHSVC_"))).toEqual([]);
  });

  it("marks credentials as secret", () => {
    const secrets = configVariables()
      .filter((v) => v.secret)
      .map((v) => v.name);
    expect(secrets).toEqual(
      expect.arrayContaining([
        "AUTHSVC_JWT_SECRET",
        "AUTHSVC_OPERATOR_TOKEN",
        "AUTHSVC_DB_DATABASE_URL",
        "AUTHSVC_SMTP_PASS",
        "AUTHSVC_MAILER_RESEND_API_KEY",
        "AUTHSVC_MAILER_POSTMARK_SERVER_TOKEN",
        "AUTHSVC_MAILER_SES_SECRET_ACCESS_KEY",
        "AUTHSVC_MAILER_SES_SESSION_TOKEN",
        "AUTHSVC_MAILER_SENDGRID_API_KEY",
        "AUTHSVC_MAILER_MAILGUN_API_KEY",
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
