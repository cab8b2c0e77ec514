/** Custom OAuth 2.0 / OpenID Connect providers that an admin adds at runtime (docs/custom-providers.md). */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("Custom OAuth providers");
export const variables = {
  enabled: variable({
    key: "CUSTOM_OAUTH_ENABLED",
    kind: k.boolean,
    default: "true",
    description:
      "Turns custom providers on: `/admin/custom-providers` (service role) and sign-in with `provider=custom:<name>` at `/authorize` and the `id_token` grant. Off, the admin routes answer `404 feature_disabled` and such sign-ins `400 validation_failed` (unsupported provider). See docs/custom-providers.md.",
  }),
  maxProviders: variable({
    key: "CUSTOM_OAUTH_MAX_PROVIDERS",
    kind: k.wholeNumber(),
    default: "0",
    description:
      "At most this many custom providers; creating one more answers `400 over_custom_provider_quota`. 0: no limit. Counted and inserted under one lock, so concurrent creations cannot pass it.",
  }),
  externalUrl: variable({
    key: "CUSTOM_OAUTH_EXTERNAL_URL",
    kind: k.url,
    computedDefault: "`API_EXTERNAL_URL`",
    description:
      "The public base URL custom providers send the browser back to: their redirect URI is `<this>/callback`, as it must be registered at the provider.",
  }),
  discoveryCacheTtl: variable({
    key: "CUSTOM_OAUTH_DISCOVERY_CACHE_TTL",
    aliases: ["AUTHSVC_EXTERNAL_OIDC_PROVIDER_CACHE_TTL"],
    kind: k.duration(1000),
    default: "1h",
    description:
      "How long an OpenID provider's discovery document (fetched when the admin creates or changes the provider) is used for sign-in before it is fetched again; a failed fetch keeps the last good document.",
  }),
  allowLoopbackForTests: variable({
    key: "CUSTOM_OAUTH_ALLOW_LOOPBACK_FOR_TESTS",
    kind: k.boolean,
    default: "false",
    description:
      "FOR TESTS ONLY; never in production. Lets custom provider URLs use plain `http:` toward loopback addresses (127.0.0.0/8, ::1, `localhost`), so that a test's provider on 127.0.0.1 can be added. Private, link-local, metadata and multicast addresses stay refused either way; off, every provider URL must be `https:` to a public address.",
  }),
};

export interface CustomProvidersConfig {
  readonly enabled: boolean;
  readonly maxProviders: number;
  /** Without a trailing slash; undefined: `API_EXTERNAL_URL`. */
  readonly externalUrl: string | undefined;
  readonly discoveryCacheTtlMs: number;
  readonly allowLoopbackForTests: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(
  s: ReturnType<typeof read>,
  ctx: SettleContext,
): { customProviders: CustomProvidersConfig } {
  if (s.allowLoopbackForTests) {
    ctx.notices.push(
      `${variables.allowLoopbackForTests.name} is on: custom providers may be reached over plain http on loopback (for tests only)`,
    );
  }
  return {
    customProviders: {
      enabled: s.enabled,
      maxProviders: s.maxProviders,
      externalUrl: s.externalUrl?.replace(/\/+$/, ""),
      discoveryCacheTtlMs: s.discoveryCacheTtl,
      allowLoopbackForTests: s.allowLoopbackForTests,
    },
  };
}

/** The callback custom providers send the browser back to. */
export function customCallbackOf(config: Config): string {
  const base = config.customProviders.externalUrl ?? config.api.externalUrl.replace(/\/+$/, "");
  return `${base}/callback`;
}

/** What the custom providers slice reads. */
export function customProvidersSettings(config: Config): Pick<AuthSettings, "customProviders"> {
  const { enabled, maxProviders } = config.customProviders;
  return { customProviders: { enabled, maxProviders } };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly customProviders: CustomProvidersConfig;
  }
}
