/** The settings of external sign-in, as they appear in `AuthSettings`. */
export interface ExternalSettings {
  /** `SECURITY_MANUAL_LINKING_ENABLED`: signed-in users may link and unlink external identities. */
  readonly manualLinkingEnabled: boolean;
  /**
   * `EXPERIMENTAL_PROVIDER_LINKING_DOMAINS` (with the older `EXPERIMENTAL_PROVIDERS_WITH_OWN_LINKING_DOMAIN`
   * folded in): the linking domain of each provider named, by provider. Absent providers are in `default`.
   */
  readonly providerLinkingDomains: Readonly<Record<string, string>>;
}

/** The linking domain every provider belongs to unless configured otherwise (the reference's name). */
export const DEFAULT_LINKING_DOMAIN = "default";

/**
 * The account-linking domain of `provider` (the reference's `GetAccountLinkingDomain`): a set of
 * identities that may share one user. Each SAML identity provider (`sso:<id>`) is a domain of its own;
 * a provider mapped by `providerLinkingDomains` is in the domain named there, with every provider mapped
 * to the same name; every other provider is in `default`, where a verified address links identities.
 */
export function linkingDomainOf(provider: string, domains: Readonly<Record<string, string>>): string {
  if (provider.startsWith("sso:")) return provider;
  return Object.hasOwn(domains, provider) ? (domains[provider] as string) : DEFAULT_LINKING_DOMAIN;
}
