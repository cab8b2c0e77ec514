import { failures } from "../failures.js";
import { constantTimeEqual, err, ok, parseAbsoluteUrl, type Result } from "../kernel/index.js";
import type { DpopDeps } from "./deps.js";

/** What a request carries and is, for its DPoP proof to be checked against. */
export interface ProofRequest {
  /** The `DPoP` header (undefined: none; a request with two is refused by the HTTP layer). */
  readonly proof: string | undefined;
  /** The request's method, upper case. */
  readonly method: string;
  /** The URL the client used: built from the issuer (`API_EXTERNAL_URL`), not the internal one. */
  readonly url: string;
  /** The access token the request presents (`Authorization: DPoP <token>`): the proof's `ath` must hash it. */
  readonly accessToken?: string | undefined;
}

/** A request's proven key: the thumbprint its tokens are bound to (`cnf.jkt`). */
export interface DpopBinding {
  readonly jkt: string;
}

/** A proof longer than this is refused unread: a proof is a header, not a payload. */
const MAX_PROOF_LENGTH = 8192;
const MAX_JTI_LENGTH = 256;

/**
 * The URL as RFC 9449 §4.3 compares it: scheme and authority normalized (lower case, no default
 * port), the path as is, without query and fragment; null when it is no absolute http(s) URL.
 */
export function htuOf(url: string): string | null {
  const parsed = parseAbsoluteUrl(url);
  if (parsed === null || (parsed.scheme !== "https" && parsed.scheme !== "http")) return null;
  const path = parsed.rest.split("?")[0] || "/";
  return `${parsed.scheme}://${parsed.authority.toLowerCase()}${path}`;
}

const text = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * Checks a request's DPoP proof (RFC 9449 §4.3): a JWS of type `dpop+jwt`, signed with an allowed
 * asymmetric algorithm by the public key its header carries; for this method and URL; issued within
 * the window around now; hashing the presented access token (`ath`) when there is one; carrying a
 * nonce of the server's when nonces are required (`use_dpop_nonce`, RFC 9449 §8); and never
 * presented before — its `jti` is spent in the database, shared by every instance, last, so that a
 * refused proof spends nothing. Answers the key's thumbprint.
 */
export async function checkDpopProof(deps: DpopDeps, request: ProofRequest): Promise<Result<DpopBinding>> {
  const { proof } = request;
  const settings = deps.settings.dpop;
  if (!proof) return err(failures.dpopProofMissing("no DPoP header"));
  if (proof.length > MAX_PROOF_LENGTH) return err(failures.dpopProofInvalid("too long"));
  // Two DPoP headers arrive joined by a comma, which no compact JWS holds (RFC 9449 §4.3: one proof).
  if (proof.includes(",")) return err(failures.dpopProofInvalid("more than one DPoP header"));
  const decoded = await deps.dpopProofs.read(proof, settings.algorithms);
  if (decoded === null)
    return err(
      failures.dpopProofInvalid("not a JWS signed by the public key of its header with an allowed alg"),
    );
  if (decoded.typ !== "dpop+jwt") return err(failures.dpopProofInvalid("typ must be dpop+jwt"));
  if (!settings.algorithms.includes(decoded.alg))
    return err(failures.dpopProofInvalid(`alg ${decoded.alg} is not allowed`));
  const { claims } = decoded;
  const { jti } = claims;
  if (!text(jti) || jti.length > MAX_JTI_LENGTH) return err(failures.dpopProofInvalid("jti missing"));
  if (claims.htm !== request.method) return err(failures.dpopProofInvalid("htm does not match the request"));
  const expected = htuOf(request.url);
  if (!text(claims.htu) || expected === null || htuOf(claims.htu) !== expected)
    return err(failures.dpopProofInvalid("htu does not match the request"));
  const now = deps.clock.now();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const { iat } = claims;
  if (typeof iat !== "number" || !Number.isFinite(iat)) return err(failures.dpopProofInvalid("iat missing"));
  if (Math.abs(nowSeconds - iat) > settings.proofMaxAgeSeconds)
    return err(failures.dpopProofInvalid("iat is outside the accepted window"));
  if (request.accessToken !== undefined) {
    const ath = deps.dpopProofs.accessTokenHash(request.accessToken);
    if (!text(claims.ath) || !constantTimeEqual(claims.ath, ath))
      return err(failures.dpopProofInvalid("ath does not match the access token"));
  }
  if (settings.nonceRequired) {
    if (!text(claims.nonce)) return err(failures.dpopNonceMissing());
    if (!deps.dpopNonces.accepts(claims.nonce, now)) return err(failures.dpopNonceStale());
  }
  // Kept until no proof issued at that iat can be accepted any more, whichever side of now it was.
  const expiresAt = new Date((Math.max(iat, nowSeconds) + settings.proofMaxAgeSeconds + 1) * 1000);
  const key = deps.tokens.hash(`dpop:${decoded.jkt}:${jti}`);
  if (!(await deps.dpopLedger.spend(key, expiresAt))) return err(failures.dpopProofReplayed());
  return ok({ jkt: decoded.jkt });
}

/** What decides whether a token request must be bound: the client's registration. */
export interface BindingClient {
  /** RFC 9449 §5.2's `dpop_bound_access_tokens`: the client's every token request carries a proof. */
  readonly dpopBoundAccessTokens?: boolean | undefined;
}

/**
 * The binding of a token request at `/oauth/token` (RFC 9449 §5), chosen before its grant runs: the
 * key of its valid proof, or none when it carries no proof and neither the client
 * (`dpop_bound_access_tokens`) nor the server (`AUTHSVC_DPOP_REQUIRED`) requires one. A proof that
 * is there is checked whatever the client.
 */
export async function tokenRequestBinding(
  deps: DpopDeps,
  input: ProofRequest & { readonly client: BindingClient },
): Promise<Result<DpopBinding | null>> {
  if (input.proof === undefined) {
    if (input.client.dpopBoundAccessTokens)
      return err(failures.dpopProofMissing("the client's tokens are DPoP-bound"));
    if (deps.settings.dpop.requiredForAll)
      return err(failures.dpopProofMissing("this server binds every token"));
    return ok(null);
  }
  return checkDpopProof(deps, input);
}

/** A request to a resource that takes DPoP-bound tokens: its scheme, and the key its token is bound to. */
export interface ResourceRequest extends ProofRequest {
  /** The `Authorization` header's scheme, lower case. */
  readonly scheme: "bearer" | "dpop";
  /** The presented token. */
  readonly accessToken: string;
  /** The thumbprint the token is bound to (`cnf.jkt`, or its session's key), null for an unbound token. */
  readonly boundTo: string | null;
}

/**
 * What a resource server checks on each request (RFC 9449 §7): a bound token comes with the `DPoP`
 * scheme, never as a bearer token, and with a valid proof (`checkDpopProof`, its `ath` hashing the
 * token) by the very key it is bound to; an unbound token comes as a bearer token.
 */
export async function checkResourceRequest(deps: DpopDeps, request: ResourceRequest): Promise<Result<void>> {
  if (request.boundTo === null)
    return request.scheme === "dpop" ? err(failures.dpopSchemeWithoutBinding()) : ok(undefined);
  if (request.scheme !== "dpop") return err(failures.dpopBoundTokenAsBearer());
  const proven = await checkDpopProof(deps, request);
  if (!proven.ok) return proven;
  if (!constantTimeEqual(proven.value.jkt, request.boundTo)) return err(failures.dpopKeyMismatch());
  return ok(undefined);
}
