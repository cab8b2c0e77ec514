import { type AuthDeps, failures } from "@authsvc/core";
import {
  authenticateClient,
  introspectToken,
  type OAuthTokens,
  revokeToken,
} from "@authsvc/core/oauth-server";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import type { HttpGrantRegistry } from "../../http/grants/http-grant.js";
import {
  clientCredentials,
  oauthJson,
  readTokenBody,
  requireOAuthServer,
} from "../../modules/oauth-server/oauth-http.js";

const tokensJson = (t: OAuthTokens) => ({
  access_token: t.accessToken,
  token_type: "bearer",
  expires_in: t.expiresIn,
  refresh_token: t.refreshToken,
  scope: t.scope,
  ...(t.idToken ? { id_token: t.idToken } : {}),
});

/** The body and the authenticated client of a token-endpoint request (a refusal is GoTrue's 400). */
async function authenticated(c: Context<AppEnv>) {
  const body = await readTokenBody(c);
  const client = unwrap(await authenticateClient(c.get("deps"), clientCredentials(c, body)));
  return { body, client };
}

/**
 * `POST /oauth/token` (OAuth 2.1 §3.2) with the grant types of `grants` offered here and allowed to the
 * client, `POST /oauth/revoke` (RFC 7009), `POST /oauth/introspect` (RFC 7662).
 */
export const tokenEndpointRoutes = (deps: AuthDeps, grants: HttpGrantRegistry) => {
  const gate = requireOAuthServer(deps);
  const offered = grants.at("/oauth/token");
  return new Hono<AppEnv>()
    .post("/oauth/token", gate, async (c) => {
      const { body, client } = await authenticated(c);
      const grantType = body.grant_type;
      if (!grantType) return oauthJson(c, { ok: false, error: failures.tokenGrantTypeMissing() }, tokensJson);
      const grant = offered.lookup(grantType);
      if (grant === undefined || !(client.grantTypes as readonly string[]).includes(grantType))
        return oauthJson(c, { ok: false, error: failures.tokenGrantTypeUnsupported(grantType) }, tokensJson);
      return oauthJson(c, await grant.run(c, body, client), tokensJson);
    })
    .post("/oauth/revoke", gate, async (c) => {
      const { body, client } = await authenticated(c);
      const input = { client, token: body.token, hint: body.token_type_hint };
      return oauthJson(c, await revokeToken(c.get("deps"), input), () => ({}));
    })
    .post("/oauth/introspect", gate, async (c) => {
      const { body, client } = await authenticated(c);
      const input = { client, token: body.token, hint: body.token_type_hint };
      return oauthJson(c, await introspectToken(c.get("deps"), input), (answer) => answer);
    });
};
