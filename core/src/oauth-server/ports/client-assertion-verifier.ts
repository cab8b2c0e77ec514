import type { ClientJwks } from "../client.js";

/** The keys an assertion is checked with: the client's secret (HMAC), or its public keys. */
export type AssertionKeys =
  | { readonly kind: "secret"; readonly secret: string }
  | { readonly kind: "public"; readonly jwks: ClientJwks | null; readonly jwksUri: string | null };

/** A client assertion decoded, unverified: what it says before its signature is checked. */
export interface DecodedAssertion {
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * Checks the signature of client assertions (RFC 7523 §2.2): a compact JWS, signed with one of
 * `algorithms` by one of the keys. Public keys from `jwksUri` are fetched through the guarded fetch
 * (size and time bounded, no private addresses), cached, and fetched again for an unknown `kid`.
 */
export interface ClientAssertionVerifier {
  /** The header and claims of a compact JWS, unverified; null when it is not one. */
  decode(assertion: string): DecodedAssertion | null;
  /**
   * The claims of the assertion when its signature verifies with `keys` and an algorithm of
   * `algorithms`; else why not (for the logs, never for the client).
   */
  verify(
    assertion: string,
    keys: AssertionKeys,
    algorithms: readonly string[],
  ): Promise<
    | { readonly ok: true; readonly claims: Readonly<Record<string, unknown>> }
    | { readonly ok: false; readonly reason: string }
  >;
}
