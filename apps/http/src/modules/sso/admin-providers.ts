import {
  createSsoProvider,
  deleteSsoProvider,
  findAdminProvider,
  listSsoProviders,
  type SsoProvider,
  updateSsoProvider,
} from "@authsvc/core/sso";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { flag, parseBody, storableJson, storableString, storedText, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import type { JsonSchema } from "../../http/operation.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
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

const string = { type: "string" };
const RULE = {
  type: "object",
  properties: {
    name: string,
    names: { type: "array", items: string },
    default: {},
    array: { type: "boolean" },
  },
  additionalProperties: false,
};
const MAPPING = {
  type: "object",
  properties: { keys: { type: "object", additionalProperties: RULE } },
  additionalProperties: false,
};

/** The reference's provider JSON (`metadata_xml` left out of lists). */
export const SSO_PROVIDER: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    resource_id: string,
    disabled: { type: ["boolean", "null"] },
    saml: {
      type: "object",
      properties: {
        entity_id: string,
        metadata_xml: string,
        metadata_url: string,
        attribute_mapping: MAPPING,
        name_id_format: string,
      },
      required: ["entity_id", "attribute_mapping"],
      additionalProperties: false,
    },
    domains: {
      type: "array",
      items: {
        type: "object",
        properties: { domain: string },
        required: ["domain"],
        additionalProperties: false,
      },
    },
    created_at: { type: "string", format: "date-time" },
    updated_at: { type: "string", format: "date-time" },
  },
  required: ["id", "disabled", "saml", "domains", "created_at", "updated_at"],
  additionalProperties: false,
};

const idpId = {
  name: "idp_id",
  description: "The provider's id, or `resource_<resource_id>`.",
};
const providerBody = {
  schema: ProviderBody,
  fields: {
    type: { description: "`saml` (required on create)." },
    metadata_xml: { description: "The identity provider's metadata; or `metadata_url`, not both." },
    metadata_url: { description: "An https URL the metadata is fetched from now; or `metadata_xml`." },
    domains: {
      description: "Email domains that lead `POST /sso` to this provider; on update, replaces the set.",
    },
    name_id_format: {
      description: "The NameID format asked for; empty: persistent.",
      enum: [
        "",
        "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
        "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
        "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
      ],
    },
    resource_id: { description: 'An id of the caller\'s choosing, unique; `""` clears it on update.' },
  },
};

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

const admin = ({ auth }: ModuleContext) => [requireAdmin(auth), requireSaml(auth)];
const idp = (c: Context<AppEnv>) => c.req.param("idp_id") ?? "";

/** `/admin/sso/providers` and `/admin/sso/providers/{idp_id}` (UUID or `resource_<resource_id>`). */
export const adminSsoEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/sso/providers",
      summary: "Lists the SAML identity providers (without their metadata XML).",
      access: "admin",
      query: [
        { name: "resource_id", description: "Only the provider with this resource id." },
        { name: "resource_id_prefix", description: "Only providers whose resource id starts with this." },
      ],
      responses: {
        200: {
          description: "The providers.",
          body: {
            type: "object",
            properties: { items: { type: "array", items: SSO_PROVIDER } },
            required: ["items"],
            additionalProperties: false,
          },
        },
      },
      errors: [404],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        const resourceId = c.req.query("resource_id");
        const resourceIdPrefix = c.req.query("resource_id_prefix");
        const filter = {
          ...(resourceId !== undefined ? { resourceId } : {}),
          ...(resourceIdPrefix !== undefined ? { resourceIdPrefix } : {}),
        };
        const providers = unwrap(await listSsoProviders(c.get("deps"), filter));
        return c.json({ items: providers.map((p) => providerJson(p, false)) });
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/sso/providers",
      summary: "Registers a SAML identity provider from its metadata.",
      access: "admin",
      body: providerBody,
      responses: { 201: { description: "Registered.", body: SSO_PROVIDER } },
      errors: [400, 404, 422],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        const provider = unwrap(await createSsoProvider(c.get("deps"), await providerInput(c)));
        return c.json(providerJson(provider), 201);
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/sso/providers/{idp_id}",
      summary: "One SAML identity provider.",
      access: "admin",
      pathParameters: [idpId],
      responses: { 200: { description: "The provider.", body: SSO_PROVIDER } },
      errors: [404],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) => c.json(providerJson(unwrap(await findAdminProvider(c.get("deps"), idp(c))))),
    ],
  ),
  endpoint(
    {
      method: "put",
      path: "/admin/sso/providers/{idp_id}",
      summary: "Changes a SAML identity provider: what the body names.",
      access: "admin",
      pathParameters: [idpId],
      body: providerBody,
      responses: { 200: { description: "The provider as changed.", body: SSO_PROVIDER } },
      errors: [400, 404, 422],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        const provider = unwrap(await updateSsoProvider(c.get("deps"), idp(c), await providerInput(c)));
        return c.json(providerJson(provider));
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/sso/providers/{idp_id}",
      summary: "Removes a SAML identity provider; answers it as it was.",
      access: "admin",
      pathParameters: [idpId],
      responses: { 200: { description: "Removed.", body: SSO_PROVIDER } },
      errors: [404],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) => c.json(providerJson(unwrap(await deleteSsoProvider(c.get("deps"), idp(c))))),
    ],
  ),
];
