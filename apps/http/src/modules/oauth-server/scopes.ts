import { defineScope, deleteScope, listScopes, type OAuthScope } from "@authsvc/core/oauth-server";
import * as v from "valibot";
import { parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { requireOAuthServer } from "./oauth-http.js";

/** A custom scope's definition. */
export const ScopeBody = v.object({ scope: text, resource: text, description: text });

const SCOPE = closed(
  {
    scope: { type: "string", description: "RFC 6749 §3.3's scope-token, at most 128 characters." },
    resource: {
      type: ["string", "null"],
      description: "The one resource (RFC 8707) the scope is granted for; null: any.",
    },
    description: {
      type: "string",
      description: "What the scope lets a client do, as the consent page says it.",
    },
    created_at: { type: "string", format: "date-time" },
  },
  ["scope", "resource", "description", "created_at"],
  "A custom scope.",
);

const scopeJson = (s: OAuthScope) => ({
  scope: s.scope,
  resource: s.resource,
  description: s.description,
  created_at: s.createdAt.toISOString(),
});

const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);
const admin = ({ auth }: ModuleContext) => requireAdmin(auth);

/** `/admin/oauth/scopes`: the custom scopes clients may ask for, beside OpenID Connect's (docs/oauth-machine-clients.md). */
export const scopeEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/admin/oauth/scopes",
      summary: "Defines a custom scope, optionally bound to one resource (RFC 8707).",
      description:
        "Its name must not be OpenID Connect's or another custom scope's (409 `conflict`); a resource must be allowed by `OAUTH_SERVER_ALLOWED_RESOURCES`.",
      access: "admin",
      body: { schema: ScopeBody },
      responses: { 201: { description: "The scope.", body: SCOPE } },
      errors: [404, 409],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        const body = parseBody(ScopeBody, await readJsonObject(c));
        return c.json(scopeJson(unwrap(await defineScope(c.get("deps"), body))), 201);
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/oauth/scopes",
      summary: "Lists the custom scopes, by name.",
      access: "admin",
      responses: {
        200: { description: "The scopes.", body: closed({ scopes: { type: "array", items: SCOPE } }) },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => c.json({ scopes: (await listScopes(c.get("deps"))).map(scopeJson) }),
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/oauth/scopes",
      summary: "Deletes a custom scope: no request may ask for it any more.",
      description:
        "Tokens already issued keep it until they expire, and consents until revoked. The name is a query parameter: a scope may hold a `/`.",
      access: "admin",
      query: [{ name: "scope", description: "The scope's name.", required: true }],
      responses: { 204: { description: "Deleted." } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        unwrap(await deleteScope(c.get("deps"), c.req.query("scope") ?? ""));
        return c.body(null, 204);
      },
    ],
  ),
];
