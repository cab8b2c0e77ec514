import type { JsonSchema, Operation } from "../../http/operation.js";
import { ProviderBody } from "./admin-providers.js";

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
const body = {
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

/** SAML identity providers (routes/sso/admin-providers.ts). */
export const adminSsoOperations: readonly Operation[] = [
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
  {
    method: "post",
    path: "/admin/sso/providers",
    summary: "Registers a SAML identity provider from its metadata.",
    access: "admin",
    body,
    responses: { 201: { description: "Registered.", body: SSO_PROVIDER } },
    errors: [400, 404, 422],
  },
  {
    method: "get",
    path: "/admin/sso/providers/{idp_id}",
    summary: "One SAML identity provider.",
    access: "admin",
    pathParameters: [idpId],
    responses: { 200: { description: "The provider.", body: SSO_PROVIDER } },
    errors: [404],
  },
  {
    method: "put",
    path: "/admin/sso/providers/{idp_id}",
    summary: "Changes a SAML identity provider: what the body names.",
    access: "admin",
    pathParameters: [idpId],
    body,
    responses: { 200: { description: "The provider as changed.", body: SSO_PROVIDER } },
    errors: [400, 404, 422],
  },
  {
    method: "delete",
    path: "/admin/sso/providers/{idp_id}",
    summary: "Removes a SAML identity provider; answers it as it was.",
    access: "admin",
    pathParameters: [idpId],
    responses: { 200: { description: "Removed.", body: SSO_PROVIDER } },
    errors: [404],
  },
];
