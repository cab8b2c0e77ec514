/** The claims of an OpenID Connect ID token (OIDC Core §2, §5.1). */
export type IdTokenClaims = Readonly<Record<string, unknown>> & {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  readonly iat: number;
  readonly exp: number;
};

/** Signs ID tokens with the asymmetric signing key, verifiable through `/.well-known/jwks.json`. */
export interface IdTokenSigner {
  /** Whether an asymmetric signing key is configured: without one no ID token can be issued. */
  readonly available: boolean;
  /** A compact JWS of `claims`; throws when `available` is false. */
  sign(claims: IdTokenClaims): Promise<string>;
}
