import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";

/** A JSON Web Key Set (RFC 7517 §5): the public keys that verify this server's access tokens. */
export interface Jwks {
  readonly keys: readonly Readonly<Record<string, unknown>>[];
}

/**
 * How long clients and caches may keep the key set: the reference's `public, max-age=600`, which is
 * also auth-js's own JWKS cache time (10 minutes). Key rotation waits this long before a newly
 * published key starts signing (docs/signing-keys.md, "Rotation").
 */
export const JWKS_CACHE_CONTROL = "public, max-age=600";

/**
 * `GET /.well-known/jwks.json` (reference internal/api/jwks.go): the public keys of `JWT_KEYS`, never
 * a symmetric one; `{"keys":[]}` with `JWT_SECRET` alone. No API key needed, as in the reference. The
 * body is fixed at start, so the route does no work per request.
 */
export const jwksRoutes = (jwks: Jwks) => {
  const body = JSON.stringify({ keys: jwks.keys });
  return new Hono<AppEnv>().get("/.well-known/jwks.json", (c) =>
    c.body(body, 200, { "content-type": "application/json", "cache-control": JWKS_CACHE_CONTROL }),
  );
};
