import { failures } from "../failures.js";
import { err, isStorableText, isUuid, ok, type Result } from "../kernel/index.js";
import {
  checkedDomains,
  checkedMapping,
  checkedNameIdFormat,
  type ProviderInput,
  suppliedMetadata,
} from "./admin-input.js";
import type { SsoDeps } from "./deps.js";
import type { ProviderClash } from "./ports/sso-providers.js";
import type { SsoProvider } from "./provider.js";

type Deps = Pick<SsoDeps, "ssoProviders" | "saml" | "samlMetadata" | "clock" | "random" | "settings">;

const enabled = (deps: Pick<SsoDeps, "settings">) =>
  deps.settings.sso.enabled ? ok(null) : err(failures.samlDisabled());

function clashFailure(clash: ProviderClash, provider: SsoProvider) {
  if (clash.clash === "entity_id") return failures.samlIdpAlreadyExists(provider.entityId);
  if (clash.clash === "domain") return failures.ssoDomainAlreadyExists(clash.domain);
  return failures.ssoResourceIdTaken();
}

async function saved(
  deps: Deps,
  provider: SsoProvider,
  mode: "insert" | "update",
): Promise<Result<SsoProvider>> {
  const outcome = await deps.ssoProviders.save(provider, mode);
  if (outcome === "saved") return ok(provider);
  if (outcome === "not_found") return err(failures.ssoAdminProviderNotFound());
  return err(clashFailure(outcome, provider));
}

/** The provider an admin path names: its UUID, or `resource_<resource_id>`. */
export async function findAdminProvider(
  deps: Pick<SsoDeps, "ssoProviders" | "settings">,
  idpId: string,
): Promise<Result<SsoProvider>> {
  const on = enabled(deps);
  if (!on.ok) return on;
  const provider = await providerNamed(deps, idpId);
  return provider === null ? err(failures.ssoAdminProviderNotFound()) : ok(provider);
}

async function providerNamed(
  deps: Pick<SsoDeps, "ssoProviders">,
  idpId: string,
): Promise<SsoProvider | null> {
  if (idpId.startsWith("resource_")) {
    const resourceId = idpId.slice("resource_".length);
    // A resource id Postgres cannot store is no provider's.
    return isStorableText(resourceId) ? deps.ssoProviders.findByResourceId(resourceId) : null;
  }
  return isUuid(idpId) ? deps.ssoProviders.findById(idpId) : null;
}

/** `GET /admin/sso/providers`: every provider, or those of a resource id (or its prefix). */
export async function listSsoProviders(
  deps: Pick<SsoDeps, "ssoProviders" | "settings">,
  filter: { readonly resourceId?: string; readonly resourceIdPrefix?: string },
): Promise<Result<SsoProvider[]>> {
  const on = enabled(deps);
  if (!on.ok) return on;
  const given = [filter.resourceId, filter.resourceIdPrefix].filter((v) => v !== undefined);
  if (!given.every(isStorableText)) return err(failures.unstorableValue());
  return ok(await deps.ssoProviders.list(filter));
}

/**
 * `POST /admin/sso/providers`: registers a SAML identity provider from its metadata (XML, or an https
 * URL fetched now), with its domains, attribute mapping, NameID format, resource id. Metadata that is
 * no identity provider's: 400; an EntityID already registered: 422 `saml_idp_already_exists`; a domain
 * another provider owns: 400 `sso_domain_already_exists` — nothing written.
 */
export async function createSsoProvider(deps: Deps, input: ProviderInput): Promise<Result<SsoProvider>> {
  const on = enabled(deps);
  if (!on.ok) return on;
  if (input.type !== "saml") return err(failures.ssoTypeUnsupported());
  if (!input.metadataXml && !input.metadataUrl) return err(failures.samlMetadataNone());
  const format = checkedNameIdFormat(input.nameIdFormat);
  if (!format.ok) return format;
  const domains = checkedDomains(input.domains ?? []);
  if (!domains.ok) return domains;
  const mapping = checkedMapping(input.attributeMapping);
  if (!mapping.ok) return mapping;
  const metadata = await suppliedMetadata(deps, input);
  if (!metadata.ok) return metadata;
  if (metadata.value === null) return err(failures.samlMetadataNone());
  const now = deps.clock.now();
  return saved(
    deps,
    {
      id: deps.random.uuid(),
      resourceId: input.resourceId ? input.resourceId : null,
      disabled: input.disabled ?? null,
      entityId: metadata.value.entityId,
      metadataXml: metadata.value.xml,
      metadataUrl: metadata.value.url,
      attributeMapping: mapping.value,
      nameIdFormat: format.value,
      domains: domains.value,
      createdAt: now,
      updatedAt: now,
    },
    "insert",
  );
}

/**
 * `PUT /admin/sso/providers/{idp_id}`: changes what the body names. New metadata must keep the
 * EntityID (400 `saml_entity_id_mismatch`); `domains` replaces the set when present (`[]` clears);
 * `resource_id: ""` clears it. Unlike the reference, an omitted `name_id_format` keeps the stored one.
 */
export async function updateSsoProvider(
  deps: Deps,
  idpId: string,
  input: ProviderInput,
): Promise<Result<SsoProvider>> {
  const found = await findAdminProvider(deps, idpId);
  if (!found.ok) return found;
  const current = found.value;
  const format =
    input.nameIdFormat === undefined ? ok(current.nameIdFormat) : checkedNameIdFormat(input.nameIdFormat);
  if (!format.ok) return format;
  const domains = input.domains === undefined ? ok([...current.domains]) : checkedDomains(input.domains);
  if (!domains.ok) return domains;
  const mapping =
    input.attributeMapping?.keys === undefined
      ? ok(current.attributeMapping)
      : checkedMapping(input.attributeMapping);
  if (!mapping.ok) return mapping;
  const metadata = await suppliedMetadata(deps, input);
  if (!metadata.ok) return metadata;
  if (metadata.value !== null && metadata.value.entityId !== current.entityId) {
    return err(failures.samlEntityIdMismatch(current.entityId, metadata.value.entityId));
  }
  const resourceId =
    input.resourceId === undefined ? current.resourceId : input.resourceId === "" ? null : input.resourceId;
  return saved(
    deps,
    {
      ...current,
      resourceId,
      disabled: input.disabled ?? current.disabled,
      metadataXml: metadata.value?.xml ?? current.metadataXml,
      metadataUrl: metadata.value === null ? current.metadataUrl : metadata.value.url,
      attributeMapping: mapping.value,
      nameIdFormat: format.value,
      domains: domains.value,
      updatedAt: deps.clock.now(),
    },
    "update",
  );
}

/** `DELETE /admin/sso/providers/{idp_id}`: removes it (domains and waiting relay states too); answers it. */
export async function deleteSsoProvider(
  deps: Pick<SsoDeps, "ssoProviders" | "settings">,
  idpId: string,
): Promise<Result<SsoProvider>> {
  const found = await findAdminProvider(deps, idpId);
  if (!found.ok) return found;
  if (!(await deps.ssoProviders.delete(found.value.id))) return err(failures.ssoAdminProviderNotFound());
  return found;
}
