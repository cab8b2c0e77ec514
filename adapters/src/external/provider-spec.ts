import type { ExternalUser, ProviderTokens } from "@authsvc/core/external";
import type { JWTPayload } from "jose";
import type { IdTokenSpec } from "./id-token.js";

/** What the operator configured for one provider (`EXTERNAL_<P>_*`). */
export interface ProviderSettings {
  /** The client ids: the first is used for sign-in; all are accepted as an ID token's audience. */
  readonly clientIds: readonly string[];
  readonly secret: string;
  /** This service's `/callback`, as registered at the provider. */
  readonly redirectUri: string;
  /** Base URL replacing the provider's public hosts (self-hosted instances, tenants, tests). */
  readonly url: string | undefined;
  /** Per request to the provider; default `PROVIDER_TIMEOUT_MS`. */
  readonly timeoutMs?: number;
  /** Least time between two fetches of the ID token keys (see `IdTokenOptions`). */
  readonly refetchCooldownMs?: number;
  /** How the provider is called; default Node's `fetch` (custom providers: `guardedFetch`). */
  readonly fetch?: typeof fetch;
}

/** What a provider's `fetchUser` may call on. */
export interface UserCalls {
  readonly tokens: ProviderTokens;
  readonly clientId: string;
  readonly secret: string;
  /** GETs JSON with the access token as Bearer (and extra headers); rejects on a non-2xx answer. */
  getJson(url: string, headers?: Readonly<Record<string, string>>): Promise<unknown>;
  /** The claims of the token response's ID token, signature and all checked; rejects when there is none. */
  idTokenClaims(): Promise<JWTPayload>;
}

/**
 * One provider as data over the generic client: its endpoints (already resolved against the base
 * URL), default scopes, how it authenticates the client at the token endpoint, and how its answers
 * map to the signed-in person.
 */
export interface ProviderSpec {
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  /** Always asked for; the scopes of `/authorize?scopes=` come on top. */
  readonly scopes: readonly string[];
  /** Fixed authorization parameters, such as Apple's `response_mode=form_post`. */
  readonly authorizationParams?: Readonly<Record<string, string>>;
  /** How the token endpoint wants the client secret: in the form body, or as HTTP Basic. */
  readonly clientAuth: "post" | "basic";
  /** S256 PKCE toward the provider, with the flow's verifier (`AuthorizationRequest.codeVerifier`). */
  readonly pkce?: boolean;
  /** The scopes of `/authorize?scopes=` replace `scopes` instead of adding to them (custom providers). */
  readonly requestScopesReplace?: boolean;
  /** A custom provider's `email_optional`. */
  readonly emailOptional?: boolean;
  fetchUser(calls: UserCalls): Promise<ExternalUser>;
  /** For OpenID providers: how their ID tokens are checked and mapped. */
  readonly idToken?: IdTokenSpec;
  /** Apple's first-sign-in `user` form field (see `ExternalProvider.withCallbackUser`). */
  withCallbackUser?(user: ExternalUser, formUser: string): ExternalUser;
}

/** Builds a provider's spec from its configured base URL (undefined: its public hosts). */
export type ProviderDefinition = (base: string | undefined) => ProviderSpec;

/** The base URL without a trailing slash, or the provider's public host over https. */
export function host(base: string | undefined, publicHost: string): string {
  return base === undefined ? `https://${publicHost}` : base.replace(/\/+$/, "");
}
