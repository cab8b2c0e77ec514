/** The settings of SAML single sign-on, as they appear in `AuthSettings`. */
export interface SsoSettings {
  readonly sso: {
    /** `SAML_ENABLED`: `/sso*` and `/admin/sso*` answer 404 `saml_provider_disabled` when false. */
    readonly enabled: boolean;
    /** `SAML_RELAY_STATE_VALIDITY_PERIOD` in milliseconds: how long an SP-initiated sign-in waits. */
    readonly relayStateValidityMs: number;
    /** `RATE_LIMIT_SSO`: `POST /sso` requests per 5 minutes per client (with per-IP limits on). */
    readonly rateLimitSsoPer5Min: number;
    /** `SAML_RATE_LIMIT_ASSERTION`: `POST /sso/saml/acs` requests per 5 minutes per client. */
    readonly rateLimitAssertionPer5Min: number;
  };
}
