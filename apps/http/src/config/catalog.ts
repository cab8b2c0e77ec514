import * as S from "./sections/index.js";
import { type ConfigVariable, describe, type Variable } from "./variable.js";

/** Every variable, section by section, in the order docs/configuration.md presents them. */
const all: readonly Variable<unknown>[] = [
  ...Object.values(S.general.variables),
  ...Object.values(S.api.variables),
  ...Object.values(S.db.variables),
  ...Object.values(S.telemetry.variables),
  ...Object.values(S.jwt.variables),
  ...Object.values(S.security.variables),
  ...Object.values(S.sessions.variables),
  ...Object.values(S.rateLimits.variables),
  ...S.external.variables,
  ...S.mail.variables,
  ...S.sms.variables,
  ...S.hooks.variables,
  ...Object.values(S.mfa.variables),
];

/** Name, type, default, requirement and meaning of every variable: the source of the docs. */
export const configVariables: readonly ConfigVariable[] = all.map(describe);

/** Every name that is read, aliases included. */
export const knownNames: ReadonlySet<string> = new Set(all.flatMap((v) => [v.name, ...v.aliases]));
