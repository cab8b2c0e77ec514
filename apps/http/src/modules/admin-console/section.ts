/** The admin console: who may use it, how long a session of it may stay idle, whether it asks for MFA. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const ROLE_PREFIX = "role:";

const variable = defineVariables("Admin console");
export const variables = {
  enabled: variable({
    key: "ADMIN_CONSOLE_ENABLED",
    kind: k.boolean,
    computedDefault: "`true` in embedded mode, `false` otherwise",
    description:
      "Serves the admin console at `/admin/console` (docs/admin-console.md): users, their sessions and bans, managed from a browser by the administrators `ADMIN_CONSOLE_ADMINS` names. Off, its paths answer 404.",
  }),
  admins: variable({
    key: "ADMIN_CONSOLE_ADMINS",
    kind: k.list,
    default: "",
    description:
      "Who may sign in to the admin console, comma-separated: email addresses (a user with that confirmed email) and `role:<name>` (every user whose `role` is `<name>`). Empty: nobody, and the console only refuses.",
  }),
  idleTimeout: variable({
    key: "ADMIN_CONSOLE_IDLE_TIMEOUT",
    kind: k.duration(60_000),
    default: "15m",
    description:
      "A console session with no request for this long is over: the next page asks to sign in again (at least `1m`).",
  }),
  requireMfa: variable({
    key: "ADMIN_CONSOLE_REQUIRE_MFA",
    kind: k.boolean,
    default: "false",
    description:
      "Only administrators with a verified TOTP factor get in (aal2). Off, an administrator with a verified factor is still asked for its code: the console always asks for aal2 when it can.",
  }),
};

export interface AdminConsoleConfig {
  readonly enabled: boolean;
  /** Lowercased email addresses. */
  readonly adminEmails: readonly string[];
  readonly adminRoles: readonly string[];
  readonly idleTimeoutMs: number;
  readonly requireMfa: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, ctx: SettleContext): { adminConsole: AdminConsoleConfig } {
  const entries = s.admins.map((entry) => entry.trim()).filter(Boolean);
  const roles = entries.filter((e) => e.startsWith(ROLE_PREFIX)).map((e) => e.slice(ROLE_PREFIX.length));
  const emails = entries.filter((e) => !e.startsWith(ROLE_PREFIX)).map((e) => e.toLowerCase());
  if (roles.some((role) => role === "") || emails.some((email) => !email.includes("@")))
    ctx.r.problem(variables.admins.name, "expected email addresses and role:<name> entries");
  return {
    adminConsole: {
      enabled: s.enabled ?? ctx.embedded,
      adminEmails: emails,
      adminRoles: roles,
      idleTimeoutMs: s.idleTimeout,
      requireMfa: s.requireMfa,
    },
  };
}

/** A console switched on that names nobody lets nobody in: worth saying at start. */
export const warnings = (config: Config, r: Reader): string[] =>
  r.isSet(variables.enabled) &&
  config.adminConsole.enabled &&
  config.adminConsole.adminEmails.length === 0 &&
  config.adminConsole.adminRoles.length === 0
    ? [`The admin console is on but ${variables.admins.name} names nobody: nobody can sign in to it.`]
    : [];

declare module "../../config/shape.js" {
  interface Config {
    readonly adminConsole: AdminConsoleConfig;
  }
}
