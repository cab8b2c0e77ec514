import { dpopNonces, dpopProofReader, postgresDpopLedger } from "@authsvc/adapters";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import * as dpop from "./section.js";

/**
 * DPoP (RFC 9449): the proofs the OAuth server's `/oauth/token` and `/oauth/userinfo` check (the
 * routes are the OAuth server's; docs/oauth-dpop.md), the nonces every instance computes alike, and
 * the ledger of proofs already presented, in the database.
 */
export const dpopModule: HttpModule = {
  name: "dpop",
  section: sectionOf(dpop),
  settings: (config) => dpop.dpopSettings(config),
  ports: ({ config, sql }) => ({
    dpopProofs: dpopProofReader(),
    dpopNonces: dpopNonces(config.jwt.secret, config.dpop.nonceLifetimeMs),
    dpopLedger: postgresDpopLedger(sql, { namespace: config.db.namespace }),
  }),
  statuses: {
    invalid_dpop_proof: 400,
    use_dpop_nonce: 400,
    invalid_token: 401,
  },
};
