/**
 * What an admin sends to create or update a custom provider, the JSON names in camel case. Every field
 * is optional here: which are required, and what an update may change, is the rules' (`rules.ts`).
 */
export interface CustomProviderFields {
  readonly providerType?: string | undefined;
  readonly identifier?: string | undefined;
  readonly name?: string | undefined;
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly acceptableClientIds?: readonly string[] | undefined;
  readonly scopes?: readonly string[] | undefined;
  readonly pkceEnabled?: boolean | undefined;
  readonly attributeMapping?: Readonly<Record<string, unknown>> | undefined;
  readonly customClaimsAllowlist?: readonly string[] | undefined;
  readonly authorizationParams?: Readonly<Record<string, unknown>> | undefined;
  readonly enabled?: boolean | undefined;
  readonly emailOptional?: boolean | undefined;
  readonly issuer?: string | undefined;
  readonly discoveryUrl?: string | undefined;
  readonly skipNonceCheck?: boolean | undefined;
  readonly authorizationUrl?: string | undefined;
  readonly tokenUrl?: string | undefined;
  readonly userinfoUrl?: string | undefined;
  readonly jwksUri?: string | undefined;
}
