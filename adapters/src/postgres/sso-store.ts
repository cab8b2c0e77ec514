import { randomUUID } from "node:crypto";
import type {
  AttributeMapping,
  ProviderClash,
  RelayState,
  RelayStateStore,
  SsoProvider,
  SsoProviderStore,
} from "@authsvc/core/sso";
import type { PendingQuery, Row, Sql } from "postgres";
import { isUuid, json } from "./rows.js";
import { rejectingUnstorableInput } from "./unstorable-input.js";

const at = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const textOrNull = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : null;

function providerFromRow(row: Row): SsoProvider {
  return {
    id: String(row.id),
    resourceId: textOrNull(row.resource_id),
    disabled: typeof row.disabled === "boolean" ? row.disabled : null,
    entityId: String(row.entity_id),
    metadataXml: String(row.metadata_xml),
    metadataUrl: textOrNull(row.metadata_url),
    attributeMapping: (row.attribute_mapping ?? {}) as AttributeMapping,
    nameIdFormat: textOrNull(row.name_id_format),
    domains: Array.isArray(row.domains) ? row.domains.map(String) : [],
    createdAt: at(row.created_at),
    updatedAt: at(row.updated_at),
  };
}

/** The clash a unique violation names, by its index. */
function clashOf(error: unknown, provider: SsoProvider): ProviderClash | null {
  const e = error as { code?: unknown; constraint_name?: unknown };
  if (e?.code !== "23505") return null;
  if (e.constraint_name === "saml_providers_entity_id_key") return { clash: "entity_id" };
  if (e.constraint_name === "sso_providers_resource_id_idx") return { clash: "resource_id" };
  if (e.constraint_name === "sso_domains_domain_idx")
    return { clash: "domain", domain: provider.domains[0] ?? "" };
  return null;
}

/**
 * `SsoProviderStore` over `sso_providers`, `saml_providers` and `sso_domains` of `namespace`; as
 * every repository of the store, it answers text the database cannot store (NUL) as
 * `validation_failed` (`unstorable-input.ts`).
 */
export function postgresSsoProviders(sql: Sql, options: { namespace: string }): SsoProviderStore {
  return rejectingUnstorableInput(ssoProviders(sql, options));
}

function ssoProviders(sql: Sql, options: { namespace: string }): SsoProviderStore {
  const ns = sql(options.namespace);
  const select = (where: PendingQuery<Row[]>) => sql`
    select
      p.id,
      p.resource_id,
      p.disabled,
      p.created_at,
      p.updated_at,
      s.entity_id,
      s.metadata_xml,
      s.metadata_url,
      s.attribute_mapping,
      s.name_id_format,
      coalesce(
        (select json_agg(d.domain order by d.domain) from ${ns}.sso_domains d where d.sso_provider_id = p.id),
        '[]'::json
      ) as domains
    from ${ns}.sso_providers p
    join ${ns}.saml_providers s on s.sso_provider_id = p.id
    where ${where}
    order by p.created_at, p.id
  `;
  const one = async (where: PendingQuery<Row[]>) => {
    const [row] = await select(where);
    return row ? providerFromRow(row) : null;
  };

  return {
    async list(filter) {
      const where =
        filter.resourceId !== undefined
          ? sql`lower(p.resource_id) = lower(${filter.resourceId})`
          : filter.resourceIdPrefix !== undefined
            ? sql`starts_with(p.resource_id, ${filter.resourceIdPrefix})`
            : sql`true`;
      return (await select(where)).map(providerFromRow);
    },
    findById: async (id) => (isUuid(id) ? one(sql`p.id = ${id}`) : null),
    findByResourceId: (resourceId) => one(sql`lower(p.resource_id) = lower(${resourceId})`),
    findByDomain: (domain) =>
      one(sql`p.id = (select sso_provider_id from ${ns}.sso_domains where lower(domain) = lower(${domain}))`),
    findByEntityId: (entityId) => one(sql`s.entity_id = ${entityId}`),

    async save(provider, mode) {
      try {
        return await sql.begin(async (tx) => {
          // A domain another provider owns is named in the answer; the unique index guards the race.
          const [owned] = await tx`
            select domain from ${ns}.sso_domains
            where lower(domain) in ${tx(provider.domains.length > 0 ? [...provider.domains] : [""])}
              and sso_provider_id <> ${provider.id}
            limit 1
          `;
          if (owned) return { clash: "domain", domain: String(owned.domain) } as const;
          const columns = {
            resource_id: provider.resourceId,
            disabled: provider.disabled,
            updated_at: provider.updatedAt,
          };
          const saml = {
            entity_id: provider.entityId,
            metadata_xml: provider.metadataXml,
            metadata_url: provider.metadataUrl,
            attribute_mapping: json(tx, provider.attributeMapping),
            name_id_format: provider.nameIdFormat,
            updated_at: provider.updatedAt,
          };
          if (mode === "insert") {
            await tx`insert into ${ns}.sso_providers ${tx({ id: provider.id, created_at: provider.createdAt, ...columns })}`;
            await tx`
              insert into ${ns}.saml_providers
              ${tx({ id: provider.id, sso_provider_id: provider.id, created_at: provider.createdAt, ...saml })}
            `;
          } else {
            const updated = await tx`update ${ns}.sso_providers set ${tx(columns)} where id = ${provider.id}`;
            if (updated.count === 0) return "not_found";
            await tx`update ${ns}.saml_providers set ${tx(saml)} where sso_provider_id = ${provider.id}`;
            await tx`delete from ${ns}.sso_domains where sso_provider_id = ${provider.id}`;
          }
          for (const domain of provider.domains) {
            await tx`
              insert into ${ns}.sso_domains
              ${tx({ id: randomUUID(), sso_provider_id: provider.id, domain, created_at: provider.updatedAt, updated_at: provider.updatedAt })}
            `;
          }
          return "saved";
        });
      } catch (error) {
        const clash = clashOf(error, provider);
        if (clash !== null) return clash;
        throw error;
      }
    },

    async delete(id) {
      if (!isUuid(id)) return false;
      const result = await sql`delete from ${ns}.sso_providers where id = ${id}`;
      return result.count > 0;
    },
  };
}

/** `RelayStateStore` over `saml_relay_states` of `namespace`; unstorable text is `validation_failed`. */
export function postgresRelayStates(sql: Sql, options: { namespace: string }): RelayStateStore {
  return rejectingUnstorableInput(relayStates(sql, options));
}

function relayStates(sql: Sql, options: { namespace: string }): RelayStateStore {
  const table = sql`${sql(options.namespace)}.saml_relay_states`;
  return {
    async create(state) {
      await sql`
        insert into ${table} ${sql({
          id: state.id,
          sso_provider_id: state.providerId,
          request_id: state.requestId,
          redirect_to: state.redirectTo,
          code_challenge: state.codeChallenge,
          code_challenge_method: state.codeChallengeMethod,
          created_at: state.createdAt,
          updated_at: state.createdAt,
        })}
      `;
    },
    async consume(id): Promise<RelayState | null> {
      if (!isUuid(id)) return null;
      // One statement reads and removes: of two concurrent posts of one relay state, one gets it.
      const [row] = await sql`delete from ${table} where id = ${id} returning *`;
      if (!row) return null;
      const method = row.code_challenge_method;
      return {
        id: String(row.id),
        providerId: String(row.sso_provider_id),
        requestId: String(row.request_id),
        redirectTo: String(row.redirect_to ?? ""),
        codeChallenge: textOrNull(row.code_challenge),
        codeChallengeMethod: method === "s256" || method === "plain" ? method : null,
        createdAt: at(row.created_at),
      };
    },
  };
}
