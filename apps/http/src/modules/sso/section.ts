/** SAML 2.0 single sign-on: authsvc as a service provider to registered identity providers. */
import { readSpPrivateKey } from "@authsvc/adapters";
import type { AuthSettings } from "@authsvc/core";
import * as v from "valibot";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

/** File name, inside AUTHSVC_DATA_DIR, of the service provider key embedded mode generates. */
export const DEV_SAML_KEY_FILE = "saml-private-key";
const DEFAULT_RELAY_STATE_VALIDITY_MS = 2 * 60 * 1000;

/** A base64 DER RSA key, checked at start; the problem never quotes key material. */
const rsaKey: k.Kind<string> = {
  type: "base64 DER RSA private key",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        readSpPrivateKey(dataset.value);
        return dataset.value;
      } catch (error) {
        addIssue({ message: error instanceof Error ? error.message : "unreadable key" });
        return NEVER;
      }
    }),
  ),
};

const variable = defineVariables("SAML single sign-on");
export const variables = {
  enabled: variable({
    key: "SAML_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "SAML 2.0 single sign-on (`POST /sso`, `/sso/saml/*`, `/admin/sso/providers`). Off, those answer 404 `saml_provider_disabled`. See docs/sso.md.",
  }),
  privateKey: variable({
    key: "SAML_PRIVATE_KEY",
    kind: rsaKey,
    computedDefault: "a generated key kept in the data folder in embedded mode",
    description:
      "The service provider's RSA key (at least 2048 bits, e = 65537), standard base64 of its DER, PKCS#1 (as `openssl genrsa -traditional`) or PKCS#8. It signs AuthnRequests and decrypts encrypted assertions; its self-signed certificate is in the metadata. Required with `SAML_ENABLED` outside embedded mode.",
  }),
  privateKeyNext: variable({
    key: "SAML_PRIVATE_KEY_NEXT",
    kind: rsaKey,
    description:
      "The key that will replace `SAML_PRIVATE_KEY`: published in the metadata beside it (with a one-hour `cacheDuration`) and tried when the current key cannot decrypt an assertion.",
  }),
  allowEncryptedAssertions: variable({
    key: "SAML_ALLOW_ENCRYPTED_ASSERTIONS",
    kind: k.boolean,
    default: "false",
    description:
      "Publish an encryption key in the metadata and accept `EncryptedAssertion`s; off, an encrypted assertion is refused.",
  }),
  relayStateValidityPeriod: variable({
    key: "SAML_RELAY_STATE_VALIDITY_PERIOD",
    kind: k.duration(0),
    default: "2m",
    description:
      "How long an SP-initiated sign-in (`POST /sso`) waits for the identity provider's answer; 0 means 2 minutes. Unanswered relay states are removed after a day.",
  }),
  externalUrl: variable({
    key: "SAML_EXTERNAL_URL",
    kind: k.url,
    computedDefault: "`API_EXTERNAL_URL`",
    description:
      "Base of the service provider's URLs: EntityID and metadata `<base>/sso/saml/metadata`, ACS `<base>/sso/saml/acs`. Changing it changes the EntityID every identity provider knows.",
  }),
  rateLimitAssertion: variable({
    key: "SAML_RATE_LIMIT_ASSERTION",
    kind: k.wholeNumber({ min: 1 }),
    default: "15",
    description:
      "`POST /sso/saml/acs` requests per 5 minutes per client IP, all instances together, at most 30 at once (with `RATE_LIMIT_HEADER`).",
  }),
  rateLimitSso: variable({
    key: "RATE_LIMIT_SSO",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description:
      "`POST /sso` requests per 5 minutes per client IP, all instances together, at most 30 at once (with `RATE_LIMIT_HEADER`): each stores a relay state.",
  }),
  metadataAllowPrivateAddresses: variable({
    key: "SAML_METADATA_ALLOW_PRIVATE_ADDRESSES",
    kind: k.boolean,
    default: "false",
    description:
      "Let `metadata_url` reach loopback, private and link-local addresses. For tests and closed networks only: otherwise an admin token could make the server fetch from inside its network.",
  }),
};

export interface SsoConfig {
  readonly enabled: boolean;
  /** Base64 DER; undefined in embedded mode (a generated key is used) or when disabled. */
  readonly privateKey: string | undefined;
  readonly privateKeyNext: string | undefined;
  readonly allowEncryptedAssertions: boolean;
  readonly relayStateValidityMs: number;
  /** Base of the service provider's URLs. */
  readonly externalUrl: string | undefined;
  readonly rateLimitAssertionPer5Min: number;
  readonly rateLimitSsoPer5Min: number;
  readonly metadataAllowPrivateAddresses: boolean;
  /** Where embedded mode keeps a generated key; undefined outside embedded mode. */
  readonly devKeyDir: string | undefined;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, ctx: SettleContext): { sso: SsoConfig } {
  if (s.enabled && s.privateKey === undefined && !ctx.embedded && !ctx.r.isSet(variables.privateKey)) {
    ctx.r.missing(variables.privateKey);
  }
  if (s.enabled && s.privateKey === undefined && ctx.embedded) {
    ctx.notices.push(
      `${variables.privateKey.name} not set: using the key kept in ${ctx.dataDir} (embedded mode)`,
    );
  }
  return {
    sso: {
      enabled: s.enabled,
      privateKey: s.privateKey,
      privateKeyNext: s.privateKeyNext,
      allowEncryptedAssertions: s.allowEncryptedAssertions,
      relayStateValidityMs: s.relayStateValidityPeriod || DEFAULT_RELAY_STATE_VALIDITY_MS,
      externalUrl: s.externalUrl,
      rateLimitAssertionPer5Min: s.rateLimitAssertion,
      rateLimitSsoPer5Min: s.rateLimitSso,
      metadataAllowPrivateAddresses: s.metadataAllowPrivateAddresses,
      devKeyDir: ctx.embedded ? ctx.dataDir : undefined,
    },
  };
}

/** What the SSO slice reads. */
export function ssoSettings(config: Config): Pick<AuthSettings, "sso"> {
  const { enabled, relayStateValidityMs, rateLimitAssertionPer5Min, rateLimitSsoPer5Min } = config.sso;
  return { sso: { enabled, relayStateValidityMs, rateLimitAssertionPer5Min, rateLimitSsoPer5Min } };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly sso: SsoConfig;
  }
}
