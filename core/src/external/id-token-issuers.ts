/**
 * The issuers the reference names when an ID-token provider with a fixed issuer is not enabled
 * (internal/api/provider: `IssuerGoogle`, `IssuerFacebook`, `DefaultAppleIssuer`), so that the refusal
 * reads `Provider (issuer "https://accounts.google.com") is not enabled`, as auth-js's suite expects.
 * Providers whose issuer depends on the configuration or on the token (Azure tenants, Keycloak) are
 * named by their provider name instead.
 */
const FIXED_ISSUERS: Readonly<Record<string, string>> = {
  google: "https://accounts.google.com",
  facebook: "https://www.facebook.com",
  apple: "https://appleid.apple.com",
};

/** The message of `POST /token?grant_type=id_token` for a provider that is not enabled. */
export function providerNotEnabledMessage(provider: string): string {
  const issuer = Object.hasOwn(FIXED_ISSUERS, provider) ? FIXED_ISSUERS[provider] : undefined;
  return issuer === undefined
    ? `Provider ${provider} is not enabled`
    : `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`;
}
