import type { FailureCatalogue } from "../kernel/index.js";

/** The SSO slice's failures (the reference's internal/api/sso.go, samlacs.go, ssoadmin.go). */
export const ssoFailures = {
  samlDisabled: ["saml_provider_disabled", "SAML 2.0 is disabled"],
  ssoTargetAmbiguous: ["validation_failed", "Only one of provider_id or domain supported"],
  ssoTargetMissing: ["validation_failed", "A provider_id or domain needs to be provided"],
  ssoProviderNotFound: ["sso_provider_not_found", "No such SSO provider"],
  ssoDomainNotFound: ["sso_provider_not_found", "No SSO provider assigned for this domain"],
  ssoProviderDisabled: ["sso_provider_disabled", "SSO provider is disabled"],
  ssoAdminProviderNotFound: ["sso_provider_not_found", "SSO Identity Provider not found"],
  samlRelayStateNotFound: [
    "saml_relay_state_not_found",
    "SAML RelayState does not exist, try logging in again?",
  ],
  samlRelayStateExpired: ["saml_relay_state_expired", "SAML RelayState has expired. Try logging in again?"],
  samlRelayStateInvalid: ["validation_failed", "SAML RelayState is not a valid UUID or URL"],
  samlArtifactRefused: [
    "validation_failed",
    "SAML Artifact response can only be used with SP initiated flow",
  ],
  samlResponseMissing: ["validation_failed", "SAMLResponse is missing"],
  samlResponseNotXml: ["validation_failed", "SAMLResponse is not a valid XML SAML assertion"],
  samlIdpNotFound: [
    "saml_idp_not_found",
    "A SAML connection has not been established with this Identity Provider",
  ],
  samlAssertionInvalid: ["validation_failed", (reason: string) => `SAML Assertion is not valid: ${reason}`],
  samlAssertionReplayed: ["validation_failed", "SAML Assertion is not valid: it was already used"],
  samlAssertionNoUserId: [
    "saml_assertion_no_user_id",
    "SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user",
  ],
  samlAssertionNoEmail: ["saml_assertion_no_email", "SAML Assertion does not contain an email address"],
  ssoTypeUnsupported: ["validation_failed", "Only 'saml' supported for SSO provider type"],
  samlMetadataBoth: ["validation_failed", "Only one of metadata_xml or metadata_url needs to be set"],
  samlMetadataNone: ["validation_failed", "Either metadata_xml or metadata_url must be set"],
  samlMetadataUrlInvalid: ["validation_failed", "metadata_url is not a valid URL"],
  samlMetadataUrlNotHttps: ["validation_failed", "metadata_url is not a HTTPS URL"],
  samlMetadataInvalid: ["validation_failed", (reason: string) => reason],
  samlMetadataFetchFailed: [
    "saml_metadata_fetch_failed",
    (reason: string) => `Error fetching SAML Metadata: ${reason}`,
  ],
  samlNameIdFormatInvalid: [
    "validation_failed",
    "name_id_format must be unspecified or one of urn:oasis:names:tc:SAML:2.0:nameid-format:persistent, urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, urn:oasis:names:tc:SAML:2.0:nameid-format:transient, urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
  ],
  ssoFieldInvalid: ["validation_failed", (reason: string) => reason],
  samlIdpAlreadyExists: [
    "saml_idp_already_exists",
    (entityId: string) => `SAML Identity Provider with this EntityID (${entityId}) already exists`,
  ],
  ssoDomainAlreadyExists: [
    "sso_domain_already_exists",
    (domain: string) => `SSO Domain '${domain}' is already assigned to an SSO identity provider`,
  ],
  ssoResourceIdTaken: ["conflict", "Updating SSO provider failed, likely due to a conflict. Try again?"],
  samlEntityIdMismatch: [
    "saml_entity_id_mismatch",
    (expected: string, got: string) =>
      `SAML Metadata can be updated only if the EntityID matches for the provider; expected '${expected}' but got '${got}'`,
  ],
  userSsoManaged: [
    "user_sso_managed",
    "Updating email, phone, password of a SSO account only possible via SSO",
  ],
} as const satisfies FailureCatalogue;
