import { memoryLimiterStore } from "@authsvc/adapters";
import {
  type AuthDeps,
  type ClientFields,
  deleteClient,
  failures,
  findClient,
  listClients,
  regenerateClientSecret,
  registerClient,
  updateClient,
} from "@authsvc/core";
import { Hono, type MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { defined, parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { limitPerClient, limitWindow, type RateLimits } from "../../http/middleware/rate-limit.js";
import { linkHeader, pageParam } from "../../http/pagination.js";
import { clientJson, requireOAuthServer } from "./oauth-http.js";

const uris = v.pipe(
  v.nullish(v.array(v.string("a string"), "an array of strings")),
  v.transform((x) => x ?? undefined),
);

/** The registration body (RFC 7591 §2); unknown fields (`scope`, `response_types`, …) are ignored. */
export const ClientBody = v.object({
  redirect_uris: uris,
  client_type: text,
  token_endpoint_auth_method: text,
  grant_types: uris,
  client_name: text,
  client_uri: text,
  logo_uri: text,
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
  });
}

/**
 * The per-IP limit of dynamic registration (`RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER`), counted
 * whether `RATE_LIMIT_HEADER` is set or not, unlike the reference's: each registration stores a client
 * (up to ~27 KB) for anyone who asks, for good, and the admin's list shows every one of them.
 */
function registrationLimit(deps: AuthDeps, limits: RateLimits | undefined): MiddlewareHandler<AppEnv> {
  const build = limits?.limiter ?? memoryLimiterStore().limiter;
  const perFiveMinutes = deps.settings.oauthServer.dynamicRegistrationPer5Min;
  return limitPerClient(build(limitWindow("oauth_client_register", perFiveMinutes)));
}

/** `POST /oauth/clients/register` (RFC 7591) and `/admin/oauth/clients` (create, list, read, update, delete, new secret). */
export const clientRoutes = (deps: AuthDeps, limits: RateLimits | undefined) => {
  const gate = requireOAuthServer(deps);
  const admin = requireAdmin(deps);
  return new Hono<AppEnv>()
    .post("/oauth/clients/register", gate, registrationLimit(deps, limits), async (c) => {
      if (!deps.settings.oauthServer.allowDynamicRegistration) throw failures.dynamicRegistrationDisabled();
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
    })
    .post("/admin/oauth/clients", gate, admin, async (c) => {
      const input = { ...fieldsOf(await readJsonObject(c)), registrationType: "manual" as const };
      const { client, secret } = unwrap(await registerClient(c.get("deps"), input));
      return c.json(clientJson(client, secret), 201);
    })
    .get("/admin/oauth/clients", gate, admin, async (c) => {
      const page = pageParam(c.req.query("page"), 1);
      const perPage = pageParam(c.req.query("per_page"), 50);
      const list = unwrap(await listClients(c.get("deps"), { page, perPage }));
      c.header("x-total-count", String(list.total));
      c.header("link", linkHeader("/admin/oauth/clients", list));
      return c.json({ clients: list.clients.map((client) => clientJson(client)) });
    })
    .get("/admin/oauth/clients/:client_id", gate, admin, async (c) => {
      return c.json(clientJson(unwrap(await findClient(c.get("deps"), c.req.param("client_id")))));
    })
    .put("/admin/oauth/clients/:client_id", gate, admin, async (c) => {
      const { clientType: _type, ...fields } = fieldsOf(await readJsonObject(c));
      const input = { id: c.req.param("client_id"), fields };
      return c.json(clientJson(unwrap(await updateClient(c.get("deps"), input))));
    })
    .delete("/admin/oauth/clients/:client_id", gate, admin, async (c) => {
      unwrap(await deleteClient(c.get("deps"), c.req.param("client_id")));
      return c.body(null, 204);
    })
    .post("/admin/oauth/clients/:client_id/regenerate_secret", gate, admin, async (c) => {
      const { client, secret } = unwrap(
        await regenerateClientSecret(c.get("deps"), c.req.param("client_id")),
      );
      return c.json(clientJson(client, secret));
    });
};
