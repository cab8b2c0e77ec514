/** DPoP (RFC 9449): sender-constrained tokens of the OAuth server (`AUTHSVC_DPOP_*`). */
export interface DpopSettings {
  readonly dpop: {
    /** The JWS algorithms a proof may use (`dpop_signing_alg_values_supported`): asymmetric only. */
    readonly algorithms: readonly string[];
    /** How far a proof's `iat` may be from the server's clock, either way, in seconds. */
    readonly proofMaxAgeSeconds: number;
    /** Whether every proof must carry a nonce the server handed out (`DPoP-Nonce`, `use_dpop_nonce`). */
    readonly nonceRequired: boolean;
    /** Whether every token request at `/oauth/token` must carry a proof, whatever the client. */
    readonly requiredForAll: boolean;
  };
}
