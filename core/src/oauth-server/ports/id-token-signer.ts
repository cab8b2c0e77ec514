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
  /**
   * A compact JWS of `claims`; throws when `available` is false. `type` is the header's `typ`
   * (`JWT` unless given: a logout token is `logout+jwt`, Back-Channel Logout §2.4).
   */
  sign(claims: IdTokenClaims, options?: { readonly type?: string }): Promise<string>;
  /**
   * The claims of a token this signer's key ring signed with an asymmetric key, expired or not
   * (RP-Initiated Logout §2: an expired `id_token_hint` still names who signed out); null for
   * anything else (bad signature, unknown key, symmetric algorithm, `none`, malformed, a header `typ`
   * other than `JWT`).
   */
  verifyOwn(token: string): Promise<Readonly<Record<string, unknown>> | null>;
}
