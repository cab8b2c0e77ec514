/** The settings of external sign-in, as they appear in `AuthSettings`. */
export interface ExternalSettings {
  /** `SECURITY_MANUAL_LINKING_ENABLED`: signed-in users may link and unlink external identities. */
  readonly manualLinkingEnabled: boolean;
}
