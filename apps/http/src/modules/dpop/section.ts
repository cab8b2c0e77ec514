/** DPoP (RFC 9449): sender-constrained access and refresh tokens of the OAuth server. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

/** The asymmetric JWS algorithms a proof may be signed with (never `none`, never a MAC). */
export const DPOP_ALGORITHMS = [
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
] as const;

const variable = defineVariables("DPoP");
export const variables = {
  required: variable({
    key: "DPOP_REQUIRED",
    kind: k.boolean,
    default: "false",
    description:
      "Every request at `/oauth/token` must carry a DPoP proof (RFC 9449), whatever the client: every token is sender-constrained. Off, a request with a proof gets tokens bound to its key, and a client registered with `dpop_bound_access_tokens: true` must always send one. See docs/oauth-dpop.md.",
  }),
  signingAlgorithms: variable({
    key: "DPOP_SIGNING_ALGS",
    kind: k.list,
    default: "ES256,EdDSA,RS256,PS256",
    description: `The JWS algorithms a DPoP proof may be signed with (\`dpop_signing_alg_values_supported\`), comma-separated, among ${DPOP_ALGORITHMS.join(", ")}.`,
  }),
  proofMaxAge: variable({
    key: "DPOP_PROOF_MAX_AGE",
    kind: k.duration(1000),
    default: "60s",
    description:
      "How far a DPoP proof's `iat` may be from the server's clock, either way. A proof is accepted once: its `jti` is kept in the database (`dpop_proofs`) that long past its `iat`, then removed by the cleanup.",
  }),
  nonceRequired: variable({
    key: "DPOP_NONCE_REQUIRED",
    kind: k.boolean,
    default: "false",
    description:
      "Every DPoP proof must carry a nonce the server handed out (RFC 9449 §8): a proof without one, or with a stale one, is answered `use_dpop_nonce` with a fresh nonce in the `DPoP-Nonce` header, which clients retry with. Nonces are a keyed MAC (from `JWT_SECRET`) of the time window: every instance accepts every instance's, with nothing shared.",
  }),
  nonceLifetime: variable({
    key: "DPOP_NONCE_LIFETIME",
    kind: k.duration(1000),
    default: "5m",
    description: "How often the DPoP nonce changes; a nonce is accepted during its window and the next one.",
  }),
};

export interface DpopConfig {
  readonly required: boolean;
  readonly algorithms: readonly string[];
  readonly proofMaxAgeSeconds: number;
  readonly nonceRequired: boolean;
  readonly nonceLifetimeMs: number;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, ctx: SettleContext): { dpop: DpopConfig } {
  const algorithms = [...new Set(s.signingAlgorithms)];
  const unknown = algorithms.filter((alg) => !(DPOP_ALGORITHMS as readonly string[]).includes(alg));
  if (unknown.length > 0 || algorithms.length === 0)
    ctx.r.problem(
      variables.signingAlgorithms.name,
      `expected asymmetric JWS algorithms among ${DPOP_ALGORITHMS.join(", ")}${unknown.length ? `, not ${unknown.join(", ")}` : ""}`,
    );
  return {
    dpop: {
      required: s.required,
      algorithms,
      proofMaxAgeSeconds: Math.max(1, Math.round(s.proofMaxAge / 1000)),
      nonceRequired: s.nonceRequired,
      nonceLifetimeMs: s.nonceLifetime,
    },
  };
}

/** What the DPoP slice reads. */
export function dpopSettings(config: Config): Pick<AuthSettings, "dpop"> {
  const { dpop } = config;
  return {
    dpop: {
      algorithms: dpop.algorithms,
      proofMaxAgeSeconds: dpop.proofMaxAgeSeconds,
      nonceRequired: dpop.nonceRequired,
      requiredForAll: dpop.required,
    },
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly dpop: DpopConfig;
  }
}
