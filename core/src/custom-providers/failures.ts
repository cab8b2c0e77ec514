import type { FailureCatalogue } from "../kernel/index.js";

/** The custom providers slice's failures (the reference's internal/api/custom_oauth_admin.go). */
export const customProvidersFailures = {
  customProvidersDisabled: ["feature_disabled", "Custom OAuth providers are disabled"],
  customProviderNotFound: ["custom_provider_not_found", "Custom OAuth provider not found"],
  customProviderExists: ["conflict", "A custom OAuth provider with this identifier already exists"],
  overCustomProviderQuota: [
    "over_custom_provider_quota",
    "Maximum number of custom OAuth/OIDC providers reached",
  ],
  customProviderInvalid: ["validation_failed", (reason: string) => reason],
  customProviderDiscoveryFailed: [
    "validation_failed",
    (url: string, reason: string) => `OIDC discovery from ${JSON.stringify(url)} failed: ${reason}`,
  ],
} as const satisfies FailureCatalogue;
