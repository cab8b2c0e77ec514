import type { AuthDeps } from "@authsvc/core";
import {
  createSsoProvider,
  deleteSsoProvider,
  findAdminProvider,
  listSsoProviders,
  type SsoProvider,
  updateSsoProvider,
} from "@authsvc/core/sso";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { flag, parseBody, storableJson, storableString, storedText, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { requireSaml } from "./sso-http.js";

const names = v.array(storableString, "an array of strings");
const AttributeRule = v.object({
  name: v.optional(storableString),
  names: v.optional(names),
  default: v.optional(v.unknown()),
  array: v.optional(v.boolean("true or false")),
});
const AttributeMappingShape = v.object({
  keys: v.optional(v.record(v.string(), AttributeRule, "an object of rules")),
});
const AttributeMapping = v.pipe(
  AttributeMappingShape,
  // Stored as jsonb: every key, name and default must be text Postgres can store.
  storableJson<v.InferOutput<typeof AttributeMappingShape>>(),
);

export const ProviderBody = v.object({
  type: storedText,
  metadata_xml: storedText,
  metadata_url: storedText,
  domains: v.nullish(names),
  attribute_mapping: v.nullish(AttributeMapping),
  name_id_format: storedText,
  resource_id: storedText,
  disabled: flag,
});

/** The reference's provider JSON; lists leave `metadata_xml` out (`withXml` false). */
export function providerJson(provider: SsoProvider, withXml = true) {
  return {
    id: provider.id,
    ...(provider.resourceId !== null ? { resource_id: provider.resourceId } : {}),
    disabled: provider.disabled,
    saml: {
      entity_id: provider.entityId,
      ...(withXml ? { metadata_xml: provider.metadataXml } : {}),
      ...(provider.metadataUrl !== null ? { metadata_url: provider.metadataUrl } : {}),
      attribute_mapping: provider.attributeMapping,
      ...(provider.nameIdFormat !== null ? { name_id_format: provider.nameIdFormat } : {}),
    },
    domains: provider.domains.map((domain) => ({ domain })),
    created_at: provider.createdAt.toISOString(),
    updated_at: provider.updatedAt.toISOString(),
  };
}

async function providerInput(c: Context<AppEnv>) {
  const body = parseBody(ProviderBody, await readJsonObject(c));
  return {
    type: body.type,
    metadataXml: body.metadata_xml,
    metadataUrl: body.metadata_url,
    domains: body.domains ?? undefined,
    attributeMapping: body.attribute_mapping ?? undefined,
    nameIdFormat: body.name_id_format,
    resourceId: body.resource_id,
    disabled: body.disabled,
  };
}

/** `/admin/sso/providers` and `/admin/sso/providers/{idp_id}` (UUID or `resource_<resource_id>`). */
export const adminSsoRoutes = (deps: AuthDeps) => {
  const admin = requireAdmin(deps);
  const gate = requireSaml(deps);
  const idp = (c: Context<AppEnv>) => c.req.param("idp_id") ?? "";
  return new Hono<AppEnv>()
    .get("/admin/sso/providers", admin, gate, async (c) => {
      const resourceId = c.req.query("resource_id");
      const resourceIdPrefix = c.req.query("resource_id_prefix");
      const filter = {
        ...(resourceId !== undefined ? { resourceId } : {}),
        ...(resourceIdPrefix !== undefined ? { resourceIdPrefix } : {}),
      };
      const providers = unwrap(await listSsoProviders(c.get("deps"), filter));
      return c.json({ items: providers.map((p) => providerJson(p, false)) });
    })
    .post("/admin/sso/providers", admin, gate, async (c) => {
      const provider = unwrap(await createSsoProvider(c.get("deps"), await providerInput(c)));
      return c.json(providerJson(provider), 201);
    })
    .get("/admin/sso/providers/:idp_id", admin, gate, async (c) =>
      c.json(providerJson(unwrap(await findAdminProvider(c.get("deps"), idp(c))))),
    )
    .put("/admin/sso/providers/:idp_id", admin, gate, async (c) => {
      const provider = unwrap(await updateSsoProvider(c.get("deps"), idp(c), await providerInput(c)));
      return c.json(providerJson(provider));
    })
    .delete("/admin/sso/providers/:idp_id", admin, gate, async (c) =>
      c.json(providerJson(unwrap(await deleteSsoProvider(c.get("deps"), idp(c))))),
    );
};
