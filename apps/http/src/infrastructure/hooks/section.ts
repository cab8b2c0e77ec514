/**
 * Auth hooks (docs/hooks.md): per hook `HOOK_<NAME>_ENABLED`, `_URI` and `_SECRETS`, as the
 * reference's `GOTRUE_HOOK_*`. An enabled hook needs its URI; a malformed URI or secret is refused
 * at start, by name.
 */

import { parseHookSecrets, parseHookUri } from "@authsvc/adapters";
import { HOOK_NAMES, type HookName } from "@authsvc/core/hooks";
import * as v from "valibot";
import type { Family } from "../../config/families.js";
import type { Kind } from "../../config/kinds.js";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { byKey, envSuffix, must, type SettleContext } from "../../config/sections/context.js";
import { defineVariables, PREFIX } from "../../config/variable.js";

const hookUri: Kind<string> = {
  type: "hook URI",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const target = parseHookUri(dataset.value);
      if ("problem" in target) addIssue({ message: `expected ${target.problem}` });
    }),
  ),
};

const hookSecrets: Kind<readonly string[]> = {
  type: "secrets separated by vertical bars",
  schema: v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const secrets = parseHookSecrets(dataset.value);
      if ("problem" in secrets) {
        addIssue({ message: secrets.problem });
        return NEVER;
      }
      return secrets;
    }),
  ),
};

const WHAT: Readonly<Record<HookName, string>> = {
  custom_access_token:
    "Custom access token hook: receives `{user_id, claims, authentication_method}` whenever an access token is issued and answers `{claims}`, which replace the token's claims (they must keep `aud, exp, iat, sub, email, phone, role, aal, session_id, is_anonymous`).",
  send_email: "Send-email hook: receives `{user, email_data}` instead of authsvc sending the mail over SMTP.",
  send_sms:
    "Send-SMS hook: receives `{user, sms: {otp, phone}}` instead of authsvc texting through `SMS_PROVIDER`.",
  before_user_created:
    "Before-user-created hook: receives `{user}` before a sign-up (email, phone, anonymous) creates it; an error answer refuses the sign-up.",
  after_user_created:
    "After-user-created hook: receives `{user}` (with its identities) once any flow but `import-gotrue` has committed a new user; its answer is not used, and its failure is logged and counted (`authsvc_hook_failures`) without undoing the user or failing the request.",
  password_verification_attempt:
    'Password verification attempt hook: receives `{user_id, valid}` on each password sign-in of an existing user; `{decision: "reject", message, should_logout_user}` refuses it.',
  mfa_verification_attempt:
    'MFA verification attempt hook: receives `{user_id, factor_id, factor_type, valid}` on each factor verification; `{decision: "reject", message}` refuses it and ends the user\'s sessions.',
};

const variable = defineVariables("Auth hooks");
export const hookVariables = byKey(HOOK_NAMES, (name) => {
  const key = `HOOK_${envSuffix(name)}`;
  return {
    enabled: variable({ key: `${key}_ENABLED`, kind: k.boolean, default: "false", description: WHAT[name] }),
    uri: variable({
      key: `${key}_URI`,
      kind: hookUri,
      required: `when ${PREFIX}${key}_ENABLED is true`,
      description:
        "`pg-functions://postgres/<schema>/<function>` (called in the database, 2 s statement timeout), `https://…`, or `http://` to localhost/127.0.0.1/::1 only (5 s for the whole call, Standard Webhooks signed).",
    }),
    secrets: variable({
      key: `${key}_SECRETS`,
      kind: hookSecrets,
      description:
        "Standard Webhooks secrets `v1,whsec_<base64>` for an HTTP hook, several separated by a vertical bar (for rotation): each signs the request (`webhook-signature`).",
    }),
  };
});

export const variables = HOOK_NAMES.flatMap((name) => Object.values(hookVariables[name]));

/** The enabled hooks, each with its URI and secrets. */
export type HooksConfig = Partial<
  Readonly<Record<HookName, { readonly uri: string; readonly secrets: readonly string[] }>>
>;

export const read = (r: Reader) => byKey(HOOK_NAMES, (name) => r.getAll(hookVariables[name]));

export function settle(s: ReturnType<typeof read>, ctx: SettleContext): { hooks: HooksConfig } {
  const hooks: Partial<Record<HookName, { uri: string; secrets: readonly string[] }>> = {};
  for (const name of HOOK_NAMES) {
    const values = s[name];
    if (!values.enabled) continue;
    ctx.r.requireIf(true, hookVariables[name].uri);
    hooks[name] = { uri: must(ctx, values.uri, hookVariables[name].uri), secrets: values.secrets ?? [] };
  }
  return { hooks };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly hooks: HooksConfig;
  }
}

/** Three variables per hook (config/families.ts). */
export const families: readonly Family[] = [
  {
    prefix: "HOOK_",
    hint: `hooks are ${HOOK_NAMES.map(envSuffix).join(", ")}, each with _ENABLED, _URI, _SECRETS`,
  },
];
