/** The settings of account settings, as they appear in `AuthSettings`. */
export interface AccountSettingsSettings {
  /** `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`: a password change needs the nonce of `GET /reauthenticate`. */
  readonly updatePasswordRequiresReauthentication: boolean;
}
