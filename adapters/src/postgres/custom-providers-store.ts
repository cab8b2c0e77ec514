import type { CustomProvider, CustomProviderStore, OidcDiscovery } from "@authsvc/core/custom-providers";
import type { Row, Sql } from "postgres";
import { json, type Queryable } from "./rows.js";

const at = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
const textOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);
const object = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function providerFromRow(row: Row): CustomProvider {
  return {
    id: String(row.id),
    providerType: row.provider_type === "oidc" ? "oidc" : "oauth2",
    identifier: String(row.identifier),
    name: String(row.name),
    clientId: String(row.client_id),
    sealedSecret: String(row.client_secret),
    acceptableClientIds: texts(row.acceptable_client_ids),
    scopes: texts(row.scopes),
    pkceEnabled: row.pkce_enabled === true,
    attributeMapping: object(row.attribute_mapping),
    customClaimsAllowlist: texts(row.custom_claims_allowlist),
    authorizationParams: Object.fromEntries(
      Object.entries(object(row.authorization_params)).filter(
        (e): e is [string, string] => typeof e[1] === "string",
      ),
    ),
    enabled: row.enabled === true,
    emailOptional: row.email_optional === true,
    issuer: textOrNull(row.issuer),
    discoveryUrl: textOrNull(row.discovery_url),
    skipNonceCheck: row.skip_nonce_check === true,
    authorizationUrl: textOrNull(row.authorization_url),
    tokenUrl: textOrNull(row.token_url),
    userinfoUrl: textOrNull(row.userinfo_url),
    jwksUri: textOrNull(row.jwks_uri),
    discovery: row.cached_discovery ? (object(row.cached_discovery) as unknown as OidcDiscovery) : null,
    discoveryCachedAt: row.discovery_cached_at ? at(row.discovery_cached_at) : null,
    createdAt: at(row.created_at),
    updatedAt: at(row.updated_at),
  };
}

function columns(sql: Queryable, p: CustomProvider) {
  return {
    id: p.id,
    provider_type: p.providerType,
    identifier: p.identifier,
    name: p.name,
    client_id: p.clientId,
    client_secret: p.sealedSecret,
    acceptable_client_ids: sql.array([...p.acceptableClientIds]),
    scopes: sql.array([...p.scopes]),
    pkce_enabled: p.pkceEnabled,
    attribute_mapping: json(sql, p.attributeMapping),
    custom_claims_allowlist: sql.array([...p.customClaimsAllowlist]),
    authorization_params: json(sql, p.authorizationParams),
    enabled: p.enabled,
    email_optional: p.emailOptional,
    issuer: p.issuer,
    discovery_url: p.discoveryUrl,
    skip_nonce_check: p.skipNonceCheck,
    authorization_url: p.authorizationUrl,
    token_url: p.tokenUrl,
    userinfo_url: p.userinfoUrl,
    jwks_uri: p.jwksUri,
    cached_discovery: p.discovery === null ? null : json(sql, p.discovery),
    discovery_cached_at: p.discoveryCachedAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** `CustomProviderStore` over `custom_oauth_providers` of `namespace`. */
export function postgresCustomProviderStore(
  sql: Queryable,
  options: { namespace: string },
): CustomProviderStore {
  const table = sql`${sql(options.namespace)}.custom_oauth_providers`;
  // In a transaction already, or on the pool (which opens one for the quota's lock).
  const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    const pool = sql as Partial<Sql>;
    return typeof pool.begin === "function" ? (pool.begin((tx) => fn(tx)) as Promise<T>) : fn(sql);
  };
  return {
    async list(type) {
      const rows = type
        ? await sql`select * from ${table} where provider_type = ${type} order by created_at, id`
        : await sql`select * from ${table} order by created_at, id`;
      return rows.map(providerFromRow);
    },
    async find(identifier) {
      const [row] = await sql`select * from ${table} where identifier = ${identifier}`;
      return row ? providerFromRow(row) : null;
    },
    async count() {
      const [row] = await sql`select count(*)::int as n from ${table}`;
      return Number(row?.n ?? 0);
    },
    create(provider, maxProviders) {
      return inTransaction(async (tx) => {
        // Creations take turns on one lock, so the count each sees includes every earlier insert:
        // concurrent creations cannot go past the quota together.
        await tx`select pg_advisory_xact_lock(hashtext(${`${options.namespace}.custom_oauth_providers`}))`;
        if (maxProviders > 0) {
          const [row] = await tx`select count(*)::int as n from ${table}`;
          if (Number(row?.n ?? 0) >= maxProviders) return "over_quota";
        }
        const inserted = await tx`
          insert into ${table} ${tx(columns(tx, provider))}
          on conflict (identifier) do nothing
          returning id
        `;
        return inserted.length === 1 ? "created" : "duplicate";
      });
    },
    async update(provider) {
      const {
        id: _id,
        identifier: _identifier,
        provider_type: _type,
        created_at: _created,
        ...changed
      } = columns(sql, provider);
      const rows = await sql`update ${table} set ${sql(changed)} where id = ${provider.id} returning id`;
      return rows.length === 1;
    },
    async delete(identifier) {
      const rows = await sql`delete from ${table} where identifier = ${identifier} returning id`;
      return rows.length === 1;
    },
  };
}
