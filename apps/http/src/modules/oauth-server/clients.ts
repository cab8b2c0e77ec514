import { type AuthDeps, failures } from "@authsvc/core";
import {
  type ClientFields,
  deleteClient,
  findClient,
  listClients,
  regenerateClientSecret,
  registerClient,
  updateClient,
} from "@authsvc/core/oauth-server";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { defined, flag, parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { perClientLimit, type RateLimits } from "../../http/middleware/rate-limit.js";
import { PAGE_HEADERS, PAGE_QUERY } from "../../http/operation.js";
import { linkHeader, pageParam } from "../../http/pagination.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { OAUTH_CLIENT, REGISTERED_CLIENT } from "./oauth.openapi-schemas.js";
import { clientJson, requireOAuthServer } from "./oauth-http.js";

const uris = v.pipe(
  v.nullish(v.array(v.string("a string"), "an array of strings")),
  v.transform((x) => x ?? undefined),
);

/**
 * The registration body (RFC 7591 §2); unknown fields (`scope`, `response_types`, …) are ignored. The
 * token exchange fields are an admin's: a registration naming them is refused.
 */
export const ClientBody = v.object({
  redirect_uris: uris,
  client_type: text,
  token_endpoint_auth_method: text,
  grant_types: uris,
  client_name: text,
  client_uri: text,
  logo_uri: text,
  // RFC 7591 §2: private_key_jwt's keys, inline or by URL; null clears them (admin update).
  jwks: v.optional(v.unknown()),
  jwks_uri: v.optional(v.nullable(v.string("a string"))),
  // RFC 9126 §6.
  require_pushed_authorization_requests: v.optional(v.boolean("a boolean")),
  post_logout_redirect_uris: uris,
  backchannel_logout_uri: text,
  backchannel_logout_session_required: v.optional(v.boolean("a boolean")),
  dpop_bound_access_tokens: flag,
  token_exchange_audiences: uris,
  token_exchange_impersonation: flag,
  scope: text,
});

function fieldsOf(json: Record<string, unknown>): ClientFields {
  const body = parseBody(ClientBody, json);
  return defined({
    redirectUris: body.redirect_uris,
    clientType: body.client_type,
    authMethod: body.token_endpoint_auth_method,
    grantTypes: body.grant_types,
    name: body.client_name,
    uri: body.client_uri,
    logoUri: body.logo_uri,
    jwks: body.jwks,
    jwksUri: body.jwks_uri,
    requirePushedAuthorizationRequests: body.require_pushed_authorization_requests,
    postLogoutRedirectUris: body.post_logout_redirect_uris,
    backchannelLogoutUri: body.backchannel_logout_uri,
    backchannelLogoutSessionRequired: body.backchannel_logout_session_required,
    dpopBoundAccessTokens: body.dpop_bound_access_tokens,
    tokenExchangeAudiences: body.token_exchange_audiences,
    tokenExchangeImpersonation: body.token_exchange_impersonation,
    scope: body.scope,
  });
}

/**
 * The per-IP limit of dynamic registration (`RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER`), counted
 * whether `RATE_LIMIT_HEADER` is set or not, unlike the reference's: each registration stores a client
 * (up to ~27 KB) for anyone who asks, for good, and the admin's list shows every one of them.
 */
function registrationLimit(deps: AuthDeps, limits: RateLimits | undefined): MiddlewareHandler<AppEnv> {
  return perClientLimit(
    limits,
    "oauth_client_register",
    deps.settings.oauthServer.dynamicRegistrationPer5Min,
  );
}

const clientId = [{ name: "client_id", description: "The client's id." }];

/** The path's id: always there, as the route matched it. */
const clientIdOf = (c: Context<AppEnv>) => c.req.param("client_id") ?? "";
const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);
const admin = ({ auth }: ModuleContext) => requireAdmin(auth);

/** `POST /oauth/clients/register` (RFC 7591) and `/admin/oauth/clients` (create, list, read, update, delete, new secret). */
export const clientEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/clients/register",
      summary: "Registers a client (RFC 7591), when `OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION` is on.",
      description:
        "Limited per client address (`RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER`), whether `RATE_LIMIT_HEADER` is set or not.",
      access: "public",
      limited: true,
      body: { schema: ClientBody },
      responses: {
        201: { description: "The client; a confidential one's secret, once.", body: REGISTERED_CLIENT },
      },
      errors: [403, 404],
    },
    (ctx) => [
      gate(ctx),
      registrationLimit(ctx.auth, ctx.rateLimit),
      async (c) => {
        if (!ctx.auth.settings.oauthServer.allowDynamicRegistration)
          throw failures.dynamicRegistrationDisabled();
        const input = { ...fieldsOf(await readJsonObject(c)), registrationType: "dynamic" as const };
        const { client, secret } = unwrap(await registerClient(c.get("deps"), input));
        return c.json(
          {
            ...clientJson(client, secret),
            client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
            ...(secret ? { client_secret_expires_at: 0 } : {}),
          },
          201,
        );
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/oauth/clients",
      summary: "Creates a client.",
      access: "admin",
      body: { schema: ClientBody },
      responses: {
        201: { description: "The client; a confidential one's secret, once.", body: OAUTH_CLIENT },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        const input = { ...fieldsOf(await readJsonObject(c)), registrationType: "manual" as const };
        const { client, secret } = unwrap(await registerClient(c.get("deps"), input));
        return c.json(clientJson(client, secret), 201);
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/oauth/clients",
      summary: "Lists the clients, newest first.",
      access: "admin",
      query: PAGE_QUERY,
      responses: {
        200: {
          description: "One page of clients.",
          body: closed({ clients: { type: "array", items: OAUTH_CLIENT } }),
          headers: PAGE_HEADERS,
        },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        const page = pageParam(c.req.query("page"), 1);
        const perPage = pageParam(c.req.query("per_page"), 50);
        const list = unwrap(await listClients(c.get("deps"), { page, perPage }));
        c.header("x-total-count", String(list.total));
        c.header("link", linkHeader("/admin/oauth/clients", list));
        return c.json({ clients: list.clients.map((client) => clientJson(client)) });
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/oauth/clients/{client_id}",
      summary: "Reads a client.",
      access: "admin",
      pathParameters: clientId,
      responses: { 200: { description: "The client.", body: OAUTH_CLIENT } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => c.json(clientJson(unwrap(await findClient(c.get("deps"), clientIdOf(c))))),
    ],
  ),
  endpoint(
    {
      method: "put",
      path: "/admin/oauth/clients/{client_id}",
      summary: "Updates a client's fields (not its type).",
      access: "admin",
      pathParameters: clientId,
      body: { schema: ClientBody },
      responses: { 200: { description: "The client.", body: OAUTH_CLIENT } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        const { clientType: _type, ...fields } = fieldsOf(await readJsonObject(c));
        const input = { id: clientIdOf(c), fields };
        return c.json(clientJson(unwrap(await updateClient(c.get("deps"), input))));
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/oauth/clients/{client_id}",
      summary: "Deletes a client; its sessions end.",
      access: "admin",
      pathParameters: clientId,
      responses: { 204: { description: "Deleted." } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        unwrap(await deleteClient(c.get("deps"), clientIdOf(c)));
        return c.body(null, 204);
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/oauth/clients/{client_id}/regenerate_secret",
      summary: "Issues a confidential client a new secret; the old one stops working.",
      access: "admin",
      pathParameters: clientId,
      responses: { 200: { description: "The client, with its new secret.", body: OAUTH_CLIENT } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      admin(ctx),
      async (c) => {
        const { client, secret } = unwrap(await regenerateClientSecret(c.get("deps"), clientIdOf(c)));
        return c.json(clientJson(client, secret));
      },
    ],
  ),
];
