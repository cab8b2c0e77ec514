import type { FailureCatalogue } from "../kernel/index.js";
import { providerNotEnabledMessage } from "./id-token-issuers.js";

/** The external slice's failures (composed with the others' in core/src/failures.ts). */
export const externalFailures = {
  // External identity providers (the reason, never a secret, goes to the error's `cause` for logs)
  externalCodeExchangeFailed: [
    "unexpected_failure",
    (codePrefix: string) => `Unable to exchange external code: ${codePrefix}`,
  ],
  externalUserFetchFailed: ["unexpected_failure", "Error getting user profile from external provider"],
  badIdToken: ["validation_failed", "Bad ID token"],
  idTokenKeysUnavailable: ["unexpected_failure", "Unable to fetch the provider's ID token signing keys"],
  idTokenAudienceUnacceptable: [
    "validation_failed",
    (audience: readonly string[]) => `Unacceptable audience in id_token: [${audience.join(" ")}]`,
  ],
  // External sign-in and identities
  providerNotEnabled: ["validation_failed", "Unsupported provider: provider is not enabled"],
  oauthStateMissing: ["bad_oauth_callback", "OAuth state parameter missing"],
  oauthStateInvalid: ["bad_oauth_state", "OAuth state parameter is invalid"],
  oauthStateNotFound: ["bad_oauth_state", "OAuth state not found or expired"],
  oauthStateExpired: ["bad_oauth_state", "OAuth state has expired"],
  oauthStateOtherBrowser: ["bad_oauth_state", "OAuth state was not started in this browser"],
  oauthCodeMissing: ["bad_oauth_callback", "OAuth callback with missing authorization code missing"],
  oauthProviderGone: ["oauth_provider_not_supported", "Unsupported provider: provider is not enabled"],
  externalEmailMissing: ["unexpected_failure", "Error getting user email from external provider"],
  // Several accounts hold the person's verified addresses: a refusal, not a fault (the reference's 500).
  multipleAccounts: [
    "email_exists",
    (domain: string) =>
      `Multiple accounts with the same email address in the same linking domain detected: ${domain}`,
  ],
  providerEmailNeedsVerification: [
    "provider_email_needs_verification",
    (provider: string) =>
      `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
  ],
  linkedEmailNeedsVerification: [
    "email_not_confirmed",
    (provider: string) =>
      `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
  ],
  identityAlreadyLinked: ["identity_already_exists", "Identity is already linked"],
  identityLinkedToAnother: ["identity_already_exists", "Identity is already linked to another user"],
  linkingTargetMissing: ["user_not_found", "Linking target user not found"],
  manualLinkingDisabled: ["manual_linking_disabled", "Manual linking is disabled"],
  singleIdentityNotDeletable: [
    "single_identity_not_deletable",
    "User must have at least 1 identity after unlinking",
  ],
  identityNotFound: ["identity_not_found", "Identity doesn't exist"],
  identityIdNotUuid: ["validation_failed", "identity_id must be an UUID"],
  emailConflictIdentityNotDeletable: [
    "email_conflict_identity_not_deletable",
    "Unable to unlink identity due to email conflict",
  ],
  idTokenProviderDisabled: ["provider_disabled", providerNotEnabledMessage],
  idTokenNonceBothOrNeither: [
    "validation_failed",
    "Passed nonce and nonce in id_token should either both exist or not.",
  ],
  idTokenNonceMismatch: ["validation_failed", "Nonces mismatch"],
} as const satisfies FailureCatalogue;
