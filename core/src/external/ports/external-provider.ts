import type { Metadata } from "../../accounts/index.js";

/**
 * What an external identity provider says about the person who signed in, mapped the way the
 * reference maps provider claims: `identityData` is stored as the identity's `identity_data` and
 * merged into the user's `user_metadata` (keys such as `sub`, `email`, `email_verified`, `name`,
 * `full_name`, `avatar_url`, `picture`, `preferred_username`, `provider_id`, `iss`, `custom_claims`).
 */
export interface ExternalUser {
  /** The provider's stable subject for this person: the identity's `provider_id`. */
  readonly subject: string;
  /** Every address the provider reports, the primary one first; only verified ones may link accounts. */
  readonly emails: readonly ExternalEmail[];
  readonly identityData: Metadata;
}

export interface ExternalEmail {
  readonly email: string;
  readonly verified: boolean;
  readonly primary: boolean;
}

/** The provider's tokens from the code exchange: passed back to the client as `provider_token` etc. */
export interface ProviderTokens {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  readonly idToken: string | null;
}

export interface AuthorizationRequest {
  /** The OAuth `state`: the flow state's id. */
  readonly state: string;
  /** Scopes asked for on top of the provider's defaults (which ask for email and name). */
  readonly scopes: readonly string[];
  /** Extra query parameters the client asked to forward (reserved ones already removed). */
  readonly extraParams: Readonly<Record<string, string>>;
  /**
   * The PKCE verifier of this flow toward the provider, derived from the state with a server key (so
   * nothing more is stored, and only this server can know it); a provider that uses PKCE sends its
   * S256 challenge here and the verifier with the code exchange. Others ignore it.
   */
  readonly codeVerifier?: string;
}

/**
 * One configured external identity provider (GitHub, Google, Keycloak, …). Implementations talk to
 * the provider over HTTP with timeouts; a provider's refusal or an unreachable provider rejects with
 * an `AuthError` (never a raw network error), so the callback can answer the reference's error redirect.
 */
export interface ExternalProvider {
  /** The name used in `/authorize?provider=` and stored as the identity's `provider`. */
  readonly name: string;
  /** The provider's authorization URL the browser is sent to (302). */
  authorizationUrl(request: AuthorizationRequest): string;
  /**
   * Exchanges the authorization code the provider sent to `/callback` for the provider's tokens,
   * with the flow's `codeVerifier` (see `AuthorizationRequest`).
   */
  exchangeCode(code: string, codeVerifier?: string): Promise<ProviderTokens>;
  /** Fetches (or decodes from the ID token) the signed-in person, with every extra call the provider needs. */
  fetchUser(tokens: ProviderTokens): Promise<ExternalUser>;
  /**
   * Apple only: on the first sign-in Apple posts the person's name to `/callback` as a `user` form
   * field (it is in no token); this adds it to `user`. Absent for every other provider.
   */
  withCallbackUser?(user: ExternalUser, formUser: string): ExternalUser;
  /** A custom provider's `email_optional`: a person it gives no address for still signs in. */
  readonly emailOptional?: boolean;
}

/**
 * An OpenID provider whose ID tokens authsvc accepts at `POST /token?grant_type=id_token`: the
 * signature is checked against the provider's published keys (cached; fetched again on an unknown
 * `kid`), with issuer, audience (the configured client ids) and expiry; the nonce rule is the
 * use case's.
 */
export interface IdTokenVerifier {
  readonly name: string;
  /**
   * True for Facebook Limited Login, whose `nonce` claim is not the SHA-256 of the client's nonce:
   * the reference skips the nonce rule for it.
   */
  readonly skipNonceCheck?: boolean;
  /** As `ExternalProvider.emailOptional`. */
  readonly emailOptional?: boolean;
  /** The token's claims mapped like `fetchUser`, plus its `nonce` claim; a bad token rejects with an `AuthError`. */
  verify(idToken: string): Promise<{ readonly user: ExternalUser; readonly nonce: string | null }>;
}

/**
 * The enabled providers by name; `null` for an unknown or disabled one. Asynchronous, since a custom
 * provider (`custom:<name>`) is read from the database.
 */
export interface ExternalProviders {
  provider(name: string): Promise<ExternalProvider | null>;
  idTokenVerifier(name: string): Promise<IdTokenVerifier | null>;
}
