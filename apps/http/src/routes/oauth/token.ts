import {
  type AuthDeps,
  authenticateClient,
  authorizationCodeGrant,
  clientRefreshTokenGrant,
  failures,
  type Grant,
  grantRegistry,
  introspectToken,
  type OAuthClient,
  type OAuthTokens,
  type Result,
  revokeToken,
} from "@authsvc/core";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { clientCredentials, oauthJson, readTokenBody, requireOAuthServer } from "./oauth-http.js";

const tokensJson = (t: OAuthTokens) => ({
  access_token: t.accessToken,
  token_type: "bearer",
  expires_in: t.expiresIn,
  refresh_token: t.refreshToken,
  scope: t.scope,
  ...(t.idToken ? { id_token: t.idToken } : {}),
});

/** One grant type of `POST /oauth/token`: its use case, with its input read from the form and the client. */
interface OAuthTokenGrant {
  readonly type: string;
  readonly run: (
    deps: AuthDeps,
    body: Record<string, string>,
    client: OAuthClient,
  ) => Promise<Result<OAuthTokens>>;
}

function oauthTokenGrant<I>(
  grant: Grant<AuthDeps, I, OAuthTokens>,
  input: (body: Record<string, string>, client: OAuthClient) => I,
): OAuthTokenGrant {
  return { type: grant.type, run: (deps, body, client) => grant.run(deps, input(body, client)) };
}

/** The OAuth server's grant types, as its slice defines them. */
const tokenGrants = grantRegistry([
  oauthTokenGrant(authorizationCodeGrant, (body, client) => ({
    client,
    code: body.code ?? "",
    codeVerifier: body.code_verifier,
    redirectUri: body.redirect_uri,
    resource: body.resource,
  })),
  oauthTokenGrant(clientRefreshTokenGrant, (body, client) => ({
    client,
    refreshToken: body.refresh_token ?? "",
  })),
]);

/** The body and the authenticated client of a token-endpoint request (a refusal is GoTrue's 400). */
async function authenticated(c: Context<AppEnv>) {
  const body = await readTokenBody(c);
  const client = unwrap(await authenticateClient(c.get("deps"), clientCredentials(c, body)));
  return { body, client };
}

/** `POST /oauth/token` (OAuth 2.1 §3.2), `POST /oauth/revoke` (RFC 7009), `POST /oauth/introspect` (RFC 7662). */
export const tokenEndpointRoutes = (deps: AuthDeps) => {
  const gate = requireOAuthServer(deps);
  return new Hono<AppEnv>()
    .post("/oauth/token", gate, async (c) => {
      const { body, client } = await authenticated(c);
      const grantType = body.grant_type;
      if (!grantType) return oauthJson(c, { ok: false, error: failures.tokenGrantTypeMissing() }, tokensJson);
      const grant = tokenGrants.lookup(grantType);
      if (grant === undefined || !(client.grantTypes as readonly string[]).includes(grantType))
        return oauthJson(c, { ok: false, error: failures.tokenGrantTypeUnsupported(grantType) }, tokensJson);
      return oauthJson(c, await grant.run(c.get("deps"), body, client), tokensJson);
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
