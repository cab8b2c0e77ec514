/** The settings of custom providers, as they appear in `AuthSettings`. */
export interface CustomProvidersSliceSettings {
  readonly customProviders: CustomProvidersSettings;
}

export interface CustomProvidersSettings {
  /** `CUSTOM_OAUTH_ENABLED`: the admin API answers and custom providers sign in. */
  readonly enabled: boolean;
  /** `CUSTOM_OAUTH_MAX_PROVIDERS`: at most this many providers; 0 for no limit. */
  readonly maxProviders: number;
}
