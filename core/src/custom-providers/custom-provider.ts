/** `oauth2`: endpoints given by the operator; `oidc`: an OpenID provider found by discovery. */
export type CustomProviderType = "oauth2" | "oidc";

/**
 * The part of an OpenID provider's discovery document that is kept with the provider and shown to
 * the admin (`discovery_document`), as the reference's `OIDCDiscovery`.
 */
export interface OidcDiscovery {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly jwks_uri: string;
  readonly userinfo_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly response_types_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly subject_types_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
}

/**
 * An OAuth 2.0 or OpenID Connect provider an admin added at runtime (`/admin/custom-providers`),
 * signed in with as `custom:<name>`. Its client secret is kept sealed (`SecretBox`, bound to `id`).
 */
export interface CustomProvider {
  readonly id: string;
  readonly providerType: CustomProviderType;
  /** `custom:<name>`: what `/authorize?provider=` names and identities record as their provider. */
  readonly identifier: string;
  readonly name: string;
  readonly clientId: string;
  /** The client secret as `SecretBox.seal(id, secret)` made it; never shown. */
  readonly sealedSecret: string;
  /** Further audiences an ID token may carry instead of `clientId`. */
  readonly acceptableClientIds: readonly string[];
  readonly scopes: readonly string[];
  /** Whether authsvc uses S256 PKCE toward the provider. */
  readonly pkceEnabled: boolean;
  /** Identity data key → a standard claim's name (a string) or a literal (anything else). */
  readonly attributeMapping: Readonly<Record<string, unknown>>;
  /** Raw claim names copied into the identity's `custom_claims`. */
  readonly customClaimsAllowlist: readonly string[];
  /** Fixed query parameters of the authorization request. */
  readonly authorizationParams: Readonly<Record<string, string>>;
  readonly enabled: boolean;
  /** People the provider gives no address for may still sign in. */
  readonly emailOptional: boolean;
  readonly issuer: string | null;
  readonly discoveryUrl: string | null;
  readonly skipNonceCheck: boolean;
  readonly authorizationUrl: string | null;
  readonly tokenUrl: string | null;
  readonly userinfoUrl: string | null;
  readonly jwksUri: string | null;
  readonly discovery: OidcDiscovery | null;
  readonly discoveryCachedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Where an OpenID provider's discovery document is: its own URL, or the issuer's well-known one. */
export function discoveryUrlOf(provider: Pick<CustomProvider, "issuer" | "discoveryUrl">): string {
  if (provider.discoveryUrl) return provider.discoveryUrl;
  return `${(provider.issuer ?? "").replace(/\/+$/, "")}/.well-known/openid-configuration`;
}
