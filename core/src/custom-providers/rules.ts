import { failures } from "../failures.js";
import { type AuthError, err, ok, type Result } from "../kernel/index.js";
import type { CustomProvider, CustomProviderType } from "./custom-provider.js";
import type { CustomProviderFields } from "./fields.js";

/**
 * The reference's database checks, made up front so that a bad value is a 400 and never a failed
 * insert: `custom:` and a lowercase name, 50 characters in all.
 */
const IDENTIFIER = /^custom:[a-z0-9](?:[a-z0-9:-]{0,41}[a-z0-9])?$/;
const MAX_URL = 2048;
const MAX_CLIENT_ID = 512;
const MAX_NAME = 100;
const MAX_SECRET = 4096;
const MAX_LIST = 100;
const MAX_ENTRY = 512;

/** Protocol parameters the server sets itself: a stored authorization parameter may not replace them. */
export const RESERVED_AUTHORIZATION_PARAMS = [
  "client_id",
  "client_secret",
  "redirect_uri",
  "response_type",
  "state",
  "code_challenge",
  "code_challenge_method",
  "code_verifier",
  "nonce",
];

/** User fields the system alone sets: an attribute mapping may not write them. */
export const PROTECTED_MAPPING_TARGETS = [
  "id",
  "aud",
  "role",
  "app_metadata",
  "created_at",
  "updated_at",
  "confirmed_at",
  "email_confirmed_at",
  "phone_confirmed_at",
  "email_verified",
  "phone_verified",
  "banned_until",
  "is_super_admin",
  // Beyond the reference: the identity's subject is the provider's `sub`, never a mapped value.
  "sub",
  "provider_id",
];

const invalid = (reason: string) => err(failures.customProviderInvalid(reason));

/** A problem with the identifier of a path or a body, or null. */
export function identifierProblem(identifier: string): AuthError | null {
  if (identifier === "") return failures.customProviderInvalid("identifier is required");
  if (!identifier.startsWith("custom:")) {
    return failures.customProviderInvalid(
      `identifier must start with 'custom:' prefix, e.g. 'custom:${identifier.slice(0, 40)}'`,
    );
  }
  if (!IDENTIFIER.test(identifier)) {
    return failures.customProviderInvalid(
      "identifier must be 'custom:' then lowercase letters, digits, ':' or '-' (at most 50 characters in all)",
    );
  }
  return null;
}

/** The rules every field obeys whenever it is given, on creation and on update. */
export function fieldProblems(fields: CustomProviderFields): Result<null> {
  if (fields.name !== undefined && fields.name.length > MAX_NAME) {
    return invalid(`name must be at most ${MAX_NAME} characters`);
  }
  if (fields.clientId !== undefined && fields.clientId.length > MAX_CLIENT_ID) {
    return invalid(`client_id must be at most ${MAX_CLIENT_ID} characters`);
  }
  if (fields.clientSecret !== undefined && fields.clientSecret.length > MAX_SECRET) {
    return invalid(`client_secret must be at most ${MAX_SECRET} characters`);
  }
  for (const [key, list] of [
    ["acceptable_client_ids", fields.acceptableClientIds],
    ["scopes", fields.scopes],
    ["custom_claims_allowlist", fields.customClaimsAllowlist],
  ] as const) {
    if (list === undefined) continue;
    if (list.length > MAX_LIST) return invalid(`${key} may have at most ${MAX_LIST} entries`);
    if (list.some((entry) => entry.length > MAX_ENTRY)) {
      return invalid(`${key} entries must be at most ${MAX_ENTRY} characters`);
    }
  }
  for (const [key, value] of Object.entries(fields.authorizationParams ?? {})) {
    if (RESERVED_AUTHORIZATION_PARAMS.includes(key)) {
      return invalid(`Cannot override reserved OAuth parameter: ${key}`);
    }
    if (typeof value !== "string") return invalid(`Authorization parameter "${key}" must be a string`);
  }
  for (const target of Object.keys(fields.attributeMapping ?? {})) {
    if (PROTECTED_MAPPING_TARGETS.includes(target)) {
      return invalid(`Cannot map to protected system field: ${target}`);
    }
  }
  if (fields.customClaimsAllowlist?.some((key) => key.trim() === "")) {
    return invalid("custom_claims_allowlist entries must be non-empty strings");
  }
  for (const [key, url] of urlFields(fields)) {
    if (url.length > MAX_URL) return invalid(`${key} must be at most ${MAX_URL} characters`);
  }
  return ok(null);
}

/** The URL fields given, by their JSON names. */
export function urlFields(fields: CustomProviderFields): [string, string][] {
  const all: [string, string | undefined][] = [
    ["issuer", fields.issuer],
    ["discovery_url", fields.discoveryUrl],
    ["authorization_url", fields.authorizationUrl],
    ["token_url", fields.tokenUrl],
    ["userinfo_url", fields.userinfoUrl],
    ["jwks_uri", fields.jwksUri],
  ];
  return all.filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "");
}

/** The type and required fields of a creation, in the reference's order of checks. */
export function creationProblems(fields: CustomProviderFields): Result<CustomProviderType> {
  const type = fields.providerType;
  if (type !== "oauth2" && type !== "oidc") {
    return invalid("provider_type must be either 'oauth2' or 'oidc'");
  }
  const identifier = identifierProblem(fields.identifier ?? "");
  if (identifier !== null) return err(identifier);
  if (!fields.name) return invalid("name is required");
  if (!fields.clientId) return invalid("client_id is required");
  if (!fields.clientSecret) return invalid("client_secret is required");
  if (type === "oidc" && !fields.issuer) return invalid("issuer is required for OIDC providers");
  if (type === "oauth2") {
    if (!fields.authorizationUrl) return invalid("authorization_url is required for OAuth2 providers");
    if (!fields.tokenUrl) return invalid("token_url is required for OAuth2 providers");
    if (!fields.userinfoUrl) return invalid("userinfo_url is required for OAuth2 providers");
  }
  const checked = fieldProblems(fields);
  return checked.ok ? ok(type) : checked;
}

/** An OpenID provider always asks for `openid`, first. */
function withOpenid(type: CustomProviderType, scopes: readonly string[]): readonly string[] {
  return type === "oidc" && !scopes.includes("openid") ? ["openid", ...scopes] : scopes;
}

const strings = (map: Readonly<Record<string, unknown>> | undefined) =>
  Object.fromEntries(
    Object.entries(map ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"),
  );

/** A new provider from checked fields, with the reference's defaults; not sealed nor discovered yet. */
export function newProvider(
  id: string,
  type: CustomProviderType,
  fields: CustomProviderFields,
  now: Date,
): CustomProvider {
  const oidc = type === "oidc";
  return {
    id,
    providerType: type,
    identifier: fields.identifier ?? "",
    name: fields.name ?? "",
    clientId: fields.clientId ?? "",
    sealedSecret: "",
    acceptableClientIds: fields.acceptableClientIds ?? [],
    scopes: withOpenid(type, fields.scopes ?? []),
    pkceEnabled: fields.pkceEnabled ?? true,
    attributeMapping: fields.attributeMapping ?? {},
    customClaimsAllowlist: fields.customClaimsAllowlist ?? [],
    authorizationParams: strings(fields.authorizationParams),
    enabled: fields.enabled ?? true,
    emailOptional: fields.emailOptional ?? false,
    issuer: oidc ? (fields.issuer ?? null) : null,
    discoveryUrl: oidc && fields.discoveryUrl ? fields.discoveryUrl : null,
    skipNonceCheck: oidc ? (fields.skipNonceCheck ?? false) : false,
    authorizationUrl: oidc ? null : (fields.authorizationUrl ?? null),
    tokenUrl: oidc ? null : (fields.tokenUrl ?? null),
    userinfoUrl: oidc ? null : (fields.userinfoUrl ?? null),
    jwksUri: oidc ? null : fields.jwksUri || null,
    discovery: null,
    discoveryCachedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A partial update as the reference applies it: non-empty strings and given lists, maps and flags
 * replace; `provider_type` and `identifier` never change; the URL fields of the other type are ignored.
 */
export function updatedProvider(
  current: CustomProvider,
  fields: CustomProviderFields,
  now: Date,
): CustomProvider {
  const oidc = current.providerType === "oidc";
  const text = (value: string | undefined, old: string) => (value ? value : old);
  const url = (value: string | undefined, old: string | null) => (value ? value : old);
  return {
    ...current,
    name: text(fields.name, current.name),
    clientId: text(fields.clientId, current.clientId),
    acceptableClientIds: fields.acceptableClientIds ?? current.acceptableClientIds,
    scopes: fields.scopes ? withOpenid(current.providerType, fields.scopes) : current.scopes,
    pkceEnabled: fields.pkceEnabled ?? current.pkceEnabled,
    attributeMapping: fields.attributeMapping ?? current.attributeMapping,
    customClaimsAllowlist: fields.customClaimsAllowlist ?? current.customClaimsAllowlist,
    authorizationParams: fields.authorizationParams
      ? strings(fields.authorizationParams)
      : current.authorizationParams,
    enabled: fields.enabled ?? current.enabled,
    emailOptional: fields.emailOptional ?? current.emailOptional,
    ...(oidc
      ? {
          issuer: url(fields.issuer, current.issuer),
          discoveryUrl: url(fields.discoveryUrl, current.discoveryUrl),
          skipNonceCheck: fields.skipNonceCheck ?? current.skipNonceCheck,
        }
      : {
          authorizationUrl: url(fields.authorizationUrl, current.authorizationUrl),
          tokenUrl: url(fields.tokenUrl, current.tokenUrl),
          userinfoUrl: url(fields.userinfoUrl, current.userinfoUrl),
          jwksUri: url(fields.jwksUri, current.jwksUri),
        }),
    updatedAt: now,
  };
}

/** The URL fields an update of a provider of `type` changes (the other type's are ignored). */
export function changedUrls(type: CustomProviderType, fields: CustomProviderFields): [string, string][] {
  const own =
    type === "oidc"
      ? ["issuer", "discovery_url"]
      : ["authorization_url", "token_url", "userinfo_url", "jwks_uri"];
  return urlFields(fields).filter(([key]) => own.includes(key));
}
