/**
 * The auth-js suite's servers, read from the checkout's own `infra/docker-compose.yml` and translated
 * to authsvc's variables, so that a newer checkout's configuration is followed without editing this
 * file. Each GoTrue service becomes one authsvc process; the compose file's mail and db services are
 * replaced by the harness's SMTP sink and the run's database.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface SuiteServer {
  /** The compose service's name (`gotrue`, `autoconfirm`, …). */
  readonly name: string;
  readonly port: number;
  /** The path the API is served under (`/auth/v1` behind the CLI's gateway); the root otherwise. */
  readonly basePath?: string;
  /** The environment the authsvc process gets (besides PATH). */
  readonly env: Record<string, string>;
}

/** What the compose file's outside services become. */
export interface Surroundings {
  readonly databaseUrl: string;
  readonly smtpPort: number;
  /** The loopback Twilio that stands in for api.twilio.com. */
  readonly twilioUrl: string;
}

interface ComposeFile {
  services: Record<string, { image?: string; environment?: Record<string, string | number> }>;
}

/**
 * Compose interpolates `${NAME}` from the shell; unset, it becomes empty. The suite's CI sets none of
 * the Twilio names, so GoTrue there fails every text it tries to send, and the suite expects that.
 */
const interpolate = (value: string) =>
  value.replace(/\$\{(\w+)\}/g, (_, name: string) => process.env[name] ?? "");

/** Twilio credentials the loopback Twilio refuses, as api.twilio.com refuses the CI's empty ones. */
export const REFUSED_TWILIO = {
  ACCOUNT_SID: "AC00000000000000000000000000000000",
  AUTH_TOKEN: "not-a-twilio-token",
  MESSAGE_SERVICE_SID: "MG00000000000000000000000000000000",
} as const;

/** One GoTrue variable as authsvc reads it, or undefined when it has no use here. */
function translate(name: string, value: string, around: Surroundings): [string, string] | undefined {
  switch (name) {
    case "DATABASE_URL":
      return ["AUTHSVC_DB_DATABASE_URL", around.databaseUrl];
    case "DB_NAMESPACE":
      return ["AUTHSVC_DB_NAMESPACE", value];
    case "PORT":
      return ["AUTHSVC_API_PORT", value];
    case "API_EXTERNAL_URL":
      return ["AUTHSVC_API_EXTERNAL_URL", value];
    // Loopback only: the suite's clients call http://localhost:<port>.
    case "GOTRUE_API_HOST":
      return ["AUTHSVC_API_HOST", "127.0.0.1"];
    case "GOTRUE_SMTP_HOST":
      return ["AUTHSVC_SMTP_HOST", "127.0.0.1"];
    case "GOTRUE_SMTP_PORT":
      return ["AUTHSVC_SMTP_PORT", String(around.smtpPort)];
    // GoTrue's cookie name for its server-side flows; authsvc sets no cookies.
    case "GOTRUE_COOKIE_KEY":
      return undefined;
  }
  const twilio = /^GOTRUE_SMS_TWILIO_(ACCOUNT_SID|AUTH_TOKEN|MESSAGE_SERVICE_SID)$/.exec(name)?.[1];
  if (twilio && value === "") return [`AUTHSVC_SMS_TWILIO_${twilio}`, REFUSED_TWILIO[twilio as "AUTH_TOKEN"]];
  if (name.startsWith("GOTRUE_")) return [`AUTHSVC_${name.slice("GOTRUE_".length)}`, value];
  return [name, value];
}

/** The GoTrue services of the checkout's compose file, as authsvc configurations. */
export function suiteServers(checkout: string, around: Surroundings): SuiteServer[] {
  const file = parse(readFileSync(join(checkout, "infra/docker-compose.yml"), "utf8")) as ComposeFile;
  const servers: SuiteServer[] = [];
  for (const [name, service] of Object.entries(file.services)) {
    if (!service.image?.startsWith("supabase/auth") && !service.image?.startsWith("supabase/gotrue"))
      continue;
    const env: Record<string, string> = {};
    for (const [key, raw] of Object.entries(service.environment ?? {})) {
      const entry = translate(key, interpolate(String(raw)), around);
      if (entry) env[entry[0]] = entry[1];
    }
    if (env.AUTHSVC_SMS_PROVIDER === "twilio") env.AUTHSVC_SMS_TWILIO_BASE_URL = around.twilioUrl;
    // The suite's admin tokens are signed with its published secret, refused without this.
    env.AUTHSVC_JWT_ALLOW_PUBLISHED_SECRET = "true";
    const port = Number(env.AUTHSVC_API_PORT);
    if (!Number.isInteger(port) || port <= 0) throw new Error(`compose service ${name} names no PORT`);
    servers.push({ name, port, env });
  }
  if (servers.length === 0) throw new Error("the compose file defines no supabase/auth service");
  return servers;
}
