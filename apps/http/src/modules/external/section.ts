/**
 * Sign-in methods: email, phone, anonymous, and the external OAuth providers. An enabled provider
 * needs its client id and secret (Keycloak its realm URL too); anything missing is refused at start,
 * by name.
 */
import { PROVIDER_NAMES, type ProviderName } from "@authsvc/adapters";
import type { AuthSettings } from "@authsvc/core";
import type { Family } from "../../config/families.js";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { byKey, envSuffix, must, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables, PREFIX } from "../../config/variable.js";

/**
 * The external OAuth providers, by the identifier used in `/authorize?provider=`: every provider the
 * adapters define, so that a new provider's definition is all it takes to configure it.
 */
export const EXTERNAL_PROVIDERS = PROVIDER_NAMES;
export type ExternalProviderId = ProviderName;

let variable = defineVariables("Sign-in methods");
export const signInVariables = {
  emailEnabled: variable({
    key: "EXTERNAL_EMAIL_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "Email sign-ups and sign-ins. External providers work either way.",
  }),
  phoneEnabled: variable({
    key: "EXTERNAL_PHONE_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Phone sign-ups and sign-ins (needs an SMS gateway). Unset in embedded mode: `true`, its texts written to the log.",
  }),
  anonymousUsersEnabled: variable({
    key: "EXTERNAL_ANONYMOUS_USERS_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Anonymous sign-ins.",
  }),
};

variable = defineVariables("External OAuth providers");
export const providerVariables = byKey(EXTERNAL_PROVIDERS, (id) => {
  const key = `EXTERNAL_${envSuffix(id)}`;
  const whenEnabled = `when ${PREFIX}${key}_ENABLED is true` as const;
  return {
    enabled: variable({
      key: `${key}_ENABLED`,
      kind: k.boolean,
      default: "false",
      description: `Sign-in with ${id}.`,
    }),
    clientId: variable({
      key: `${key}_CLIENT_ID`,
      kind: k.text,
      required: whenEnabled,
      description: `OAuth 2.0 client ID at ${id}. Several, comma-separated: the first signs in, all are accepted as an ID token's audience.`,
    }),
    secret: variable({
      key: `${key}_SECRET`,
      kind: k.secret(),
      required: whenEnabled,
      description: `OAuth 2.0 client secret at ${id}.`,
    }),
    redirectUri: variable({
      key: `${key}_REDIRECT_URI`,
      kind: k.url,
      computedDefault: "`<API_EXTERNAL_URL>/callback`",
      description: `Where ${id} sends the user back: this service's \`/callback\`, as registered at ${id}.`,
    }),
    // Keycloak is always self-hosted, so there is no public host to fall back to.
    url:
      id === "keycloak"
        ? variable({
            key: `${key}_URL`,
            kind: k.url,
            required: whenEnabled,
            description: "Base URL of your Keycloak realm.",
          })
        : variable({
            key: `${key}_URL`,
            kind: k.url,
            computedDefault: "the provider's public host",
            description: `Base URL for ${id} authorization and token requests (self-hosted instances, tests).`,
          }),
  };
});

/** Every variable of the section, in the order the docs present them. */
export const variables = [
  ...Object.values(signInVariables),
  ...EXTERNAL_PROVIDERS.flatMap((id) => Object.values(providerVariables[id])),
];

export type OAuthProviderConfig =
  | {
      readonly enabled: true;
      readonly clientId: string;
      readonly secret: string;
      /** Undefined means `<API_EXTERNAL_URL>/callback`. */
      readonly redirectUri: string | undefined;
      /** Base URL of the provider; undefined means its public host. */
      readonly url: string | undefined;
    }
  | {
      readonly enabled: false;
      readonly clientId: string | undefined;
      readonly secret: string | undefined;
      readonly redirectUri: string | undefined;
      readonly url: string | undefined;
    };

export type ExternalConfig = {
  readonly email: { readonly enabled: boolean };
  readonly phone: { readonly enabled: boolean };
  readonly anonymousUsers: { readonly enabled: boolean };
} & { readonly [P in ExternalProviderId]: OAuthProviderConfig };

export const read = (r: Reader) => ({
  signIn: r.getAll(signInVariables),
  providers: byKey(EXTERNAL_PROVIDERS, (id) => r.getAll(providerVariables[id])),
});

type ProviderValues = ReturnType<typeof read>["providers"][ExternalProviderId];

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): { external: ExternalConfig } {
  for (const id of EXTERNAL_PROVIDERS) {
    const { enabled, ...credentials } = providerVariables[id];
    for (const variable of Object.values(credentials)) {
      if (variable.required !== "no") ctx.r.requireIf(values.providers[id].enabled, variable);
    }
  }
  const { signIn } = values;
  return {
    external: {
      email: { enabled: signIn.emailEnabled },
      phone: { enabled: phoneEnabled(signIn.phoneEnabled, ctx) },
      anonymousUsers: { enabled: signIn.anonymousUsersEnabled },
      ...byKey(EXTERNAL_PROVIDERS, (id) => oauthProvider(ctx, id, values.providers[id])),
    },
  };
}

/** Embedded mode turns phone sign-ins on unless told otherwise: its texts go to the log (SMS_PROVIDER). */
function phoneEnabled(value: boolean, ctx: SettleContext): boolean {
  if (!ctx.embedded || ctx.r.isSet(signInVariables.phoneEnabled)) return value;
  ctx.notices.push(`${signInVariables.phoneEnabled.name} not set: phone sign-ins are on (embedded mode)`);
  return true;
}

function oauthProvider(ctx: SettleContext, id: ExternalProviderId, p: ProviderValues): OAuthProviderConfig {
  if (!p.enabled)
    return { enabled: false, clientId: p.clientId, secret: p.secret, redirectUri: p.redirectUri, url: p.url };
  const v = providerVariables[id];
  return {
    enabled: true,
    clientId: must(ctx, p.clientId, v.clientId),
    secret: must(ctx, p.secret, v.secret),
    redirectUri: p.redirectUri,
    url: p.url,
  };
}

/** Which ways of signing up the accounts slice allows. */
export function signupSettings(config: Config): AuthSettings["signup"] {
  return {
    disabled: config.disableSignup,
    emailEnabled: config.external.email.enabled,
    phoneEnabled: config.external.phone.enabled,
    anonymousEnabled: config.external.anonymousUsers.enabled,
    mailerAutoconfirm: config.mailer.autoconfirm,
    smsAutoconfirm: config.sms.autoconfirm,
    hideExisting: config.security.signupHideExisting,
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly external: ExternalConfig;
  }
}

/** Five variables per provider (config/families.ts). */
export const families: readonly Family[] = [
  {
    prefix: "EXTERNAL_",
    hint: `providers are ${EXTERNAL_PROVIDERS.map(envSuffix).join(", ")}, each with _ENABLED, _CLIENT_ID, _SECRET, _REDIRECT_URI, _URL`,
  },
];

/** `/settings`' `external`: which sign-in methods are on. */
export function externalSettings(config: Config) {
  const providers = Object.fromEntries(EXTERNAL_PROVIDERS.map((id) => [id, config.external[id].enabled]));
  return {
    ...(providers as Record<ExternalProviderId, boolean>),
    email: config.external.email.enabled,
    phone: config.external.phone.enabled,
    anonymous_users: config.external.anonymousUsers.enabled,
  };
}
