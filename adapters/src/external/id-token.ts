import { failures } from "@authsvc/core";
import type { ExternalUser, IdTokenVerifier } from "@authsvc/core/external";
import type { AuthError } from "@authsvc/core/kernel";
import { createRemoteJWKSet, customFetch, errors, type JWTPayload, jwtVerify } from "jose";
import { checkIdTokenClaims, storablePerson } from "./provider-answers.js";
import { ProviderCallError, wireReason } from "./provider-call.js";

/**
 * The signature algorithms an ID token may use. Asymmetric only: an `HS256` token would be checked
 * against a secret the provider shares with every client, and `none` is never a signature.
 */
export const ID_TOKEN_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];

/** How a provider signs and fills its ID tokens. */
export interface IdTokenSpec {
  /** The accepted issuers, or a check for providers with one issuer per tenant (Azure). */
  readonly issuer: string | readonly string[] | ((iss: string, claims: JWTPayload) => boolean);
  /** Where the provider publishes its signing keys (JWKS). */
  readonly jwksUrl: string;
  /** The claims mapped into the signed-in person, as the reference maps that provider's ID token. */
  map(claims: JWTPayload): ExternalUser;
  /** Facebook Limited Login: its nonce is not hashed, so the reference skips the nonce rule. */
  readonly skipNonceCheck?: boolean;
  /** False for a provider whose ID tokens serve its code flow only (LinkedIn), not the id_token grant. */
  readonly grant?: boolean;
  /** A custom provider's `email_optional` (see `IdTokenVerifier.emailOptional`). */
  readonly emailOptional?: boolean;
}

export interface IdTokenOptions {
  /** The configured client ids: the token's `aud` must contain one. */
  readonly audiences: readonly string[];
  readonly timeoutMs: number;
  /**
   * The least time between two fetches of the key set. A token with an unknown `kid` makes the set be
   * fetched again (the provider rotated its keys), but never more often than this, so a stream of
   * forged `kid`s cannot turn authsvc against the provider.
   */
  readonly refetchCooldownMs?: number;
  /** How the keys are fetched; default Node's `fetch`. */
  readonly fetch?: typeof fetch;
}

/** An `IdTokenVerifier`, plus the verified claims for the code flow of providers that sign in with an ID token. */
export interface ProviderIdTokens extends IdTokenVerifier {
  claims(idToken: string): Promise<JWTPayload>;
}

export function idTokens(name: string, spec: IdTokenSpec, options: IdTokenOptions): ProviderIdTokens {
  const keys = createRemoteJWKSet(new URL(spec.jwksUrl), {
    timeoutDuration: options.timeoutMs,
    cooldownDuration: options.refetchCooldownMs ?? 30_000,
    cacheMaxAge: 10 * 60_000,
    ...(options.fetch ? { [customFetch]: options.fetch } : {}),
  });
  const fixedIssuer = typeof spec.issuer === "function" ? undefined : spec.issuer;

  async function claims(idToken: string): Promise<JWTPayload> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        algorithms: ID_TOKEN_ALGORITHMS,
        ...(fixedIssuer === undefined ? {} : { issuer: fixedIssuer as string | string[] }),
        requiredClaims: ["sub", "exp"],
        clockTolerance: 30,
      }));
    } catch (error) {
      throw verificationFailure(error, options.timeoutMs);
    }
    const checked = checkIdTokenClaims(payload);
    if (!checked.ok) throw withCause(failures.badIdToken(), checked.reason);
    const { iss, aud } = checked.claims;
    if (typeof spec.issuer === "function" && !spec.issuer(iss ?? "", payload)) {
      throw withCause(failures.badIdToken(), `unexpected issuer ${JSON.stringify(iss)}`);
    }
    const audience = typeof aud === "string" ? [aud] : (aud ?? []);
    if (!audience.some((aud) => options.audiences.includes(aud))) {
      throw failures.idTokenAudienceUnacceptable(audience);
    }
    return payload;
  }

  return {
    name,
    ...(spec.skipNonceCheck ? { skipNonceCheck: true } : {}),
    ...(spec.emailOptional ? { emailOptional: true } : {}),
    claims,
    async verify(idToken) {
      const verified = await claims(idToken);
      let user: ExternalUser;
      try {
        user = storablePerson(spec.map(verified));
      } catch (error) {
        if (error instanceof ProviderCallError) throw withCause(failures.badIdToken(), error.message);
        throw error;
      }
      // `claims` refused a nonce claim that is not a string.
      return { user, nonce: typeof verified.nonce === "string" ? verified.nonce : null };
    },
  };
}

/** A key set that cannot be fetched is the provider's fault; anything else is a bad token. */
function verificationFailure(error: unknown, timeoutMs: number): AuthError {
  const unreachable =
    !(error instanceof errors.JOSEError) ||
    error instanceof errors.JWKSTimeout ||
    error.message.startsWith("Expected 200 OK");
  return unreachable
    ? withCause(failures.idTokenKeysUnavailable(), wireReason(error, timeoutMs))
    : withCause(failures.badIdToken(), error.message);
}

/** Keeps the technical reason beside the public message, for the log line of the request. */
export function withCause(error: AuthError, reason: string): AuthError {
  error.cause = reason;
  return error;
}
