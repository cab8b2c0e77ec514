import { ref } from "../../http/operation.js";
import { endpoint } from "../../modules/module.js";

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
export const jwksEndpoint = endpoint(
  {
    method: "get",
    path: "/.well-known/jwks.json",
    summary: "The public keys that verify access tokens (none with `JWT_SECRET` alone).",
    access: "public",
    responses: {
      200: {
        description: "The key set; `Cache-Control: public, max-age=600`.",
        body: ref("Jwks"),
        headers: { "cache-control": { description: "`public, max-age=600`.", required: true } },
      },
    },
  },
  ({ jwks }) => {
    const body = JSON.stringify({ keys: jwks?.keys ?? [] });
    return [
      (c) => c.body(body, 200, { "content-type": "application/json", "cache-control": JWKS_CACHE_CONTROL }),
    ];
  },
);
