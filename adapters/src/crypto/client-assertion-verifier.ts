import type { AssertionKeys, ClientAssertionVerifier, ClientJwks } from "@authsvc/core/oauth-server";
import {
  compactVerify,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWK,
} from "jose";

export interface ClientAssertionVerifierOptions {
  /** The fetch `jwks_uri` is read with: the guarded fetch (size bounded, no private addresses). */
  readonly fetch: typeof fetch;
  /** How long a fetched key set is used before it is fetched again; default 5 minutes. */
  readonly cacheTtlMs?: number;
  /** How many `jwks_uri` key sets are kept at most (the oldest go first); default 1000. */
  readonly maxCached?: number;
  /** The least time between two fetches of one `jwks_uri` on an unknown `kid`; default 5 s. */
  readonly refetchCooldownMs?: number;
  /** How long a fetch of `jwks_uri` may take; default 3 s. */
  readonly timeoutMs?: number;
  /** Now, in milliseconds (tests). */
  readonly now?: () => number;
}

interface Cached {
  readonly jwks: JSONWebKeySet;
  readonly fetchedAt: number;
}

const encoder = new TextEncoder();

/** The key set `uri` answers: JSON with a `keys` array, 200 only, within the fetch's bounds. */
async function fetchJwks(fetchImpl: typeof fetch, uri: string, timeoutMs: number): Promise<JSONWebKeySet> {
  const response = await fetchImpl(uri, {
    headers: { accept: "application/json, application/jwk-set+json" },
    redirect: "error",
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200) {
    void response.body?.cancel();
    throw new Error(`jwks_uri answered ${response.status}`);
  }
  const body = (await response.json()) as unknown;
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error("jwks_uri did not answer a key set");
  return { keys: keys.filter((k): k is JWK => typeof k === "object" && k !== null) };
}

/** Whether the set has a key a header with this `kid` may pick (no `kid`: any key). */
const hasKid = (jwks: JSONWebKeySet, kid: unknown) =>
  typeof kid !== "string" || jwks.keys.some((k) => k.kid === kid);

/**
 * The `ClientAssertionVerifier` of jose: the algorithm must be one of those allowed (never `none`,
 * which jose refuses anyway), an HMAC is checked with the secret, a signature with a public key of
 * the client's inline `jwks` or of its `jwks_uri`. A `jwks_uri` key set is fetched with `fetch` (the
 * guarded one), within `timeoutMs`, kept `cacheTtlMs` in a cache of at most `maxCached` sets, and
 * fetched again when an assertion names a `kid` it lacks (at most once per `refetchCooldownMs`). One
 * fetch at a time per URI: concurrent assertions share it.
 */
export function clientAssertionVerifier(options: ClientAssertionVerifierOptions): ClientAssertionVerifier {
  const ttl = options.cacheTtlMs ?? 5 * 60_000;
  const maxCached = options.maxCached ?? 1000;
  const cooldown = options.refetchCooldownMs ?? 5000;
  const timeout = options.timeoutMs ?? 3000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<JSONWebKeySet>>();

  const load = (uri: string): Promise<JSONWebKeySet> => {
    const running = inFlight.get(uri);
    if (running) return running;
    const started = fetchJwks(options.fetch, uri, timeout)
      .then((jwks) => {
        cache.delete(uri);
        cache.set(uri, { jwks, fetchedAt: now() });
        while (cache.size > maxCached) {
          const oldest = cache.keys().next().value;
          if (oldest === undefined) break;
          cache.delete(oldest);
        }
        return jwks;
      })
      .finally(() => inFlight.delete(uri));
    inFlight.set(uri, started);
    return started;
  };

  const remoteKeys = async (uri: string, kid: unknown): Promise<JSONWebKeySet> => {
    const cached = cache.get(uri);
    if (cached === undefined || now() - cached.fetchedAt > ttl) return load(uri);
    if (!hasKid(cached.jwks, kid) && now() - cached.fetchedAt >= cooldown) return load(uri);
    return cached.jwks;
  };

  return {
    decode(assertion) {
      try {
        return { header: decodeProtectedHeader(assertion), claims: decodeJwt(assertion) };
      } catch {
        return null;
      }
    },
    async verify(assertion: string, keys: AssertionKeys, algorithms: readonly string[]) {
      let header: ReturnType<typeof decodeProtectedHeader>;
      try {
        header = decodeProtectedHeader(assertion);
      } catch {
        return { ok: false, reason: "not a JWS" };
      }
      if (typeof header.alg !== "string" || !algorithms.includes(header.alg) || header.alg === "none")
        return { ok: false, reason: `algorithm ${String(header.alg)} not allowed` };
      const verifyOptions = { algorithms: [...algorithms] };
      try {
        let payload: Uint8Array;
        if (keys.kind === "secret") {
          ({ payload } = await compactVerify(assertion, encoder.encode(keys.secret), verifyOptions));
        } else {
          let jwks: ClientJwks | JSONWebKeySet | null = keys.jwks;
          if (jwks === null && keys.jwksUri !== null) jwks = await remoteKeys(keys.jwksUri, header.kid);
          if (jwks === null) return { ok: false, reason: "the client has no keys" };
          const keySet = createLocalJWKSet(jwks as JSONWebKeySet);
          ({ payload } = await compactVerify(assertion, keySet, verifyOptions));
        }
        const claims = JSON.parse(new TextDecoder().decode(payload)) as unknown;
        if (typeof claims !== "object" || claims === null || Array.isArray(claims))
          return { ok: false, reason: "claims are not an object" };
        return { ok: true, claims: claims as Record<string, unknown> };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : "verification failed" };
      }
    },
  };
}
