import { failures } from "../failures.js";
import { constantTimeEqual, err, isUuid, ok, type Result } from "../kernel/index.js";
import { type ClientAuthMethod, clientIdOf, type OAuthClient } from "./client.js";
import { isClientIdUrl, resolveClient } from "./client-metadata-document.js";
import type { OAuthServerDeps } from "./deps.js";
import type { AssertionKeys } from "./ports/client-assertion-verifier.js";
import { issuerOf } from "./query.js";

/** The client credentials of a token-endpoint request, as the HTTP layer found them. */
export interface ClientCredentials {
  /** `client_secret_basic` when they came in `Authorization: Basic`, else from the body. */
  readonly basic: boolean;
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  /** RFC 7523 §2.2: `client_assertion_type` and `client_assertion`, from the body. */
  readonly assertionType?: string | undefined;
  readonly assertion?: string | undefined;
}

/** The only assertion type of RFC 7523 §2.2. */
export const JWT_BEARER_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** What `private_key_jwt` assertions may be signed with: asymmetric algorithms only. */
export const PRIVATE_KEY_JWT_ALGORITHMS = [
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
] as const;
/** What `client_secret_jwt` assertions may be signed with: HMAC with the client's secret. */
export const CLIENT_SECRET_JWT_ALGORITHMS = ["HS256", "HS384", "HS512"] as const;

/** The clock skew allowed on `exp`, `iat` and `nbf` of an assertion, in seconds. */
const SKEW_SECONDS = 30;
const MAX_JTI = 256;
const MAX_ASSERTION = 8192;

type Deps = Pick<
  OAuthServerDeps,
  | "store"
  | "tokens"
  | "clock"
  | "random"
  | "settings"
  | "clientAssertions"
  | "clientSecretBox"
  | "clientDocuments"
>;

/**
 * Authenticates the client of `POST /oauth/token`, `/oauth/revoke`, `/oauth/introspect` and
 * `/oauth/par`: the method used must be the one registered, a public client sends no secret, a
 * confidential one its secret (compared, as a hash, in constant time) or a signed assertion (RFC
 * 7523). Every refusal is one `invalid_credentials`, whatever failed.
 */
export async function authenticateClient(
  deps: Deps,
  credentials: ClientCredentials,
): Promise<Result<OAuthClient>> {
  if (credentials.assertionType !== undefined || credentials.assertion !== undefined)
    return authenticateAssertion(deps, credentials);
  const { clientId, clientSecret = "" } = credentials;
  if (!clientId) return err(failures.clientIdRequired());
  const method: ClientAuthMethod = credentials.basic
    ? "client_secret_basic"
    : clientSecret
      ? "client_secret_post"
      : "none";
  // A URL is a client metadata document's client: fetched again when stale, and refused as
  // `invalid_client` (an OAuth error) when it cannot be had.
  const resolved = await resolveClient(deps, clientId);
  if (!resolved.ok) return resolved;
  const client = resolved.value;
  // The hash is computed whatever is found, so an unknown client costs what a known one does.
  const presented = deps.tokens.hash(clientSecret);
  if (client === null) return err(failures.clientCredentialsInvalid());
  if (client.authMethod !== method) return err(failures.clientAuthMethodMismatch(client.authMethod));
  if (client.clientType === "public")
    return clientSecret ? err(failures.clientCredentialsInvalid()) : ok(client);
  if (!clientSecret || client.secretHash === null || !constantTimeEqual(presented, client.secretHash))
    return err(failures.clientCredentialsInvalid());
  return ok(client);
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * RFC 7523 §3: the assertion is signed by the client with its registered method (`private_key_jwt`:
 * an asymmetric algorithm and a key of its `jwks` or `jwks_uri`; `client_secret_jwt`: HMAC with its
 * secret), `iss` and `sub` are the client's id, `aud` names the token endpoint or the issuer, `exp`
 * is set and not further than `OAUTH_SERVER_CLIENT_ASSERTION_MAX_LIFETIME` away, `iat` and `nbf` are
 * not in the future, and its `jti` was never used before (recorded in the store until it expires,
 * so a replay is refused by any instance).
 */
async function authenticateAssertion(
  deps: Deps,
  credentials: ClientCredentials,
): Promise<Result<OAuthClient>> {
  // The reason is not told to the client: every refusal reads alike.
  const refuse = (_reason: string) => err(failures.clientCredentialsInvalid());
  const { assertion, assertionType } = credentials;
  if (assertionType !== JWT_BEARER_ASSERTION_TYPE) return refuse("unsupported client_assertion_type");
  if (!assertion || assertion.length > MAX_ASSERTION) return refuse("client_assertion missing or too long");
  // One method only (RFC 6749 §2.3): no Basic header, no secret beside the assertion.
  if (credentials.basic || credentials.clientSecret) return refuse("more than one authentication method");
  const decoded = deps.clientAssertions.decode(assertion);
  if (decoded === null) return refuse("client_assertion is not a JWS");
  const sub = decoded.claims.sub;
  if (typeof sub !== "string" || !(isUuid(sub) || isClientIdUrl(sub)))
    return refuse("sub is not a client id");
  if (credentials.clientId !== undefined && credentials.clientId !== sub)
    return refuse("client_id is not the assertion's sub");
  // A client metadata document's client is named by its URL: its document (and keys) as fresh as
  // anywhere else, a document that cannot be had refused as invalid_client.
  const resolved = await resolveClient(deps, sub);
  if (!resolved.ok) return resolved;
  const client = resolved.value;
  if (client === null) return refuse("unknown client");
  let keys: AssertionKeys;
  let algorithms: readonly string[];
  if (client.authMethod === "private_key_jwt") {
    keys = { kind: "public", jwks: client.jwks ?? null, jwksUri: client.jwksUri ?? null };
    algorithms = PRIVATE_KEY_JWT_ALGORITHMS;
  } else if (client.authMethod === "client_secret_jwt") {
    const secret = client.secretSealed ? deps.clientSecretBox.open(client.id, client.secretSealed) : null;
    if (secret === null) return refuse("no readable secret for client_secret_jwt");
    keys = { kind: "secret", secret };
    algorithms = CLIENT_SECRET_JWT_ALGORITHMS;
  } else {
    return err(failures.clientAuthMethodMismatch(client.authMethod));
  }
  const verified = await deps.clientAssertions.verify(assertion, keys, algorithms);
  if (!verified.ok) return refuse(verified.reason);
  const claims = verified.claims;
  if (claims.iss !== clientIdOf(client) || claims.sub !== clientIdOf(client))
    return refuse("iss and sub must be the client id");
  const issuer = issuerOf(deps.settings).replace(/\/+$/, "");
  // RFC 9126 §2: the pushed authorization request endpoint is an audience too.
  const audiences = new Set([issuer, `${issuer}/`, `${issuer}/oauth/token`, `${issuer}/oauth/par`]);
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.some((a) => typeof a === "string" && audiences.has(a)))
    return refuse("aud names neither the token endpoint nor the issuer");
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const { exp, iat, nbf, jti } = claims;
  if (!isNumber(exp)) return refuse("exp is required");
  if (exp <= now - SKEW_SECONDS) return refuse("expired");
  if (iat !== undefined && (!isNumber(iat) || iat > now + SKEW_SECONDS)) return refuse("iat in the future");
  if (nbf !== undefined && (!isNumber(nbf) || nbf > now + SKEW_SECONDS)) return refuse("not yet valid (nbf)");
  const maxLifetime = deps.settings.oauthServer.clientAssertionMaxLifetimeSeconds;
  if (exp - (isNumber(iat) ? Math.min(iat, now) : now) > maxLifetime) return refuse("lives too long");
  if (typeof jti !== "string" || jti.length === 0 || jti.length > MAX_JTI) return refuse("jti is required");
  const until = new Date((exp + SKEW_SECONDS) * 1000);
  if (!(await deps.store.oauthClientAssertions.use(client.id, jti, until, deps.clock.now())))
    return refuse("jti already used");
  return ok(client);
}
