import { externalProviders, mailer, smsGateways } from "./families.js";
import { EXTERNAL_PROVIDERS } from "./types.js";
import { type ConfigVariable, describe, type Variable } from "./variable.js";
import * as V from "./variables.js";

/** Every variable, in the order the README (Configuration) presents them. */
const all: readonly Variable<unknown>[] = [
  ...Object.values(V.general),
  ...Object.values(V.api),
  ...Object.values(V.db),
  ...Object.values(V.telemetry),
  ...Object.values(V.jwt),
  ...Object.values(V.security),
  ...Object.values(V.rateLimit),
  ...Object.values(V.signIn),
  ...EXTERNAL_PROVIDERS.flatMap((id) => Object.values(externalProviders[id])),
  ...Object.values(V.mail),
  ...Object.values(mailer.subjects),
  ...Object.values(mailer.urlPaths),
  ...Object.values(mailer.templates),
  ...Object.values(V.sms),
  ...Object.values(smsGateways).flatMap((gateway) => Object.values(gateway)),
];

/** Name, type, default, requirement and meaning of every variable: the source of the docs. */
export const configVariables: readonly ConfigVariable[] = all.map(describe);

/** Every name that is read, aliases included. */
export const knownNames: ReadonlySet<string> = new Set(all.flatMap((v) => [v.name, ...v.aliases]));
