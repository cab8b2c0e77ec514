import type { AuthDeps } from "@authsvc/core";
import type { ProofRequest } from "@authsvc/core/dpop";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { endpointUrl } from "./oauth-http.js";

/**
 * The request's `DPoP` header (RFC 9449 §4.1): undefined without one. Two headers reach here joined
 * by a comma, which no compact JWS holds: core refuses such a proof, as RFC 9449 §4.3 asks.
 */
export function dpopProofOf(c: Context<AppEnv>): string | undefined {
  return c.req.header("dpop")?.trim();
}

/**
 * What a request's proof is checked against: its method and the URL the client used — the issuer's
 * (`API_EXTERNAL_URL`) and the route's path, never the internal address the server listens on.
 */
export function proofRequestOf(c: Context<AppEnv>, path: string, accessToken?: string): ProofRequest {
  const deps = c.get("deps");
  return {
    proof: dpopProofOf(c),
    method: c.req.method.toUpperCase(),
    url: endpointUrl(deps, path),
    ...(accessToken === undefined ? {} : { accessToken }),
  };
}

/** With nonces required, every answer of a DPoP endpoint hands out the current one (`DPoP-Nonce`, RFC 9449 §8). */
export function offerDpopNonce(c: Context<AppEnv>, deps: AuthDeps): void {
  if (!deps.settings.dpop.nonceRequired) return;
  c.header("DPoP-Nonce", deps.dpopNonces.current(deps.clock.now()));
}
