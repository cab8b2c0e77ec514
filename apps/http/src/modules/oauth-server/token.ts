import { failures } from "@authsvc/core";
import { tokenRequestBinding } from "@authsvc/core/dpop";
import {
  authenticateClient,
  introspectToken,
  type OAuthTokens,
  revokeToken,
} from "@authsvc/core/oauth-server";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { OAUTH_WORDS } from "../../http/grants/oauth-errors.js";
import { jsonObject } from "../../http/operation.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { offerDpopNonce, proofRequestOf } from "./dpop-http.js";
import { INTROSPECTION, oauthErrorOr, TOKENS } from "./oauth.openapi-schemas.js";
import { clientCredentials, oauthJson, readTokenBody, requireOAuthServer } from "./oauth-http.js";

const string = { type: "string" } as const;
export const clientFields = {
  client_id: { ...string, description: "`client_secret_post` and `none`: the client's id." },
  client_secret: { ...string, description: "`client_secret_post`: the client's secret." },
  client_assertion_type: {
    ...string,
    description:
      "`private_key_jwt`, `client_secret_jwt` (RFC 7523): `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`.",
  },
  client_assertion: {
    ...string,
    description: "`private_key_jwt`, `client_secret_jwt`: the signed assertion.",
  },
};
/** Form-encoded, as OAuth clients send (a repeated field is refused); JSON is read too. */
export const TYPES = ["application/x-www-form-urlencoded", "application/json"];
const tokenBody = (properties: Record<string, { type: string; description?: string }>) => ({
  schema: jsonObject({ ...properties, ...clientFields }),
  contentTypes: TYPES,
});
const tokenHint = { ...string, description: "`access_token` or `refresh_token`: which to try first." };
export const noStore = { "cache-control": { description: "`no-store`.", required: true } };
const dpopNonce = {
  "dpop-nonce": {
    description:
      "With `AUTHSVC_DPOP_NONCE_REQUIRED`: the nonce the next DPoP proof must carry (RFC 9449 §8).",
  },
};
export const oauthErrors = {
  400: oauthErrorOr("An OAuth error; a refused client authentication is `invalid_credentials`."),
  500: oauthErrorOr("`server_error` (no signing key for the ID token), or a fault."),
};

const tokensJson = (t: OAuthTokens) => ({
  access_token: t.accessToken,
  // RFC 9449 §5: tokens bound to the request's DPoP key are of type DPoP.
  token_type: t.boundTo ? "DPoP" : "bearer",
  expires_in: t.expiresIn,
  ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
  scope: t.scope,
  ...(t.idToken ? { id_token: t.idToken } : {}),
  ...(t.issuedTokenType ? { issued_token_type: t.issuedTokenType } : {}),
});

/**
 * The body and the authenticated client of a token-endpoint request. A refused authentication is
 * GoTrue's 400 (`invalid_credentials`, as the reference); a client metadata document that cannot be
 * had is an OAuth error body (`invalid_client`), answered as the Response here.
 */
export async function authenticated(c: Context<AppEnv>) {
  const body = await readTokenBody(c);
  const result = await authenticateClient(c.get("deps"), clientCredentials(c, body));
  if (!result.ok && OAUTH_WORDS.has(result.error.code)) return oauthJson(c, result, () => ({}));
  return { body, client: unwrap(result) };
}

const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);

/**
 * `POST /oauth/token` (OAuth 2.1 §3.2) with the grant types of the modules' `grants` offered here and
 * allowed to the client, `POST /oauth/revoke` (RFC 7009), `POST /oauth/introspect` (RFC 7662).
 */
export const tokenEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/token",
      summary:
        "Exchanges an authorization code, a refresh token, or a user's access token (RFC 8693), for tokens (OAuth 2.1 §3.2), or issues a confidential client its own token (`client_credentials`, RFC 6749 §4.4).",
      description:
        "With a `DPoP` header (RFC 9449), a valid proof binds the tokens to its key, whatever the grant: the access token carries `cnf.jkt`, `token_type` is `DPoP`, and the session's refresh tokens need a proof of that key. Refused with `invalid_dpop_proof` (or `use_dpop_nonce`, with a `DPoP-Nonce` header) when the proof is not valid, or missing while the client or the server requires one. See docs/oauth-dpop.md.",
      access: "client",
      body: tokenBody({
        grant_type: {
          ...string,
          description:
            "`authorization_code`, `refresh_token`, `client_credentials` or `urn:ietf:params:oauth:grant-type:token-exchange`.",
        },
        code: string,
        code_verifier: string,
        redirect_uri: string,
        resource: string,
        refresh_token: string,
        subject_token: {
          ...string,
          description: "Token exchange: the user's access token, issued to the client.",
        },
        subject_token_type: { ...string, description: "`urn:ietf:params:oauth:token-type:access_token`." },
        actor_token: {
          ...string,
          description: "Token exchange: the acting party's access token (optional).",
        },
        actor_token_type: { ...string, description: "`urn:ietf:params:oauth:token-type:access_token`." },
        audience: {
          ...string,
          description: "Token exchange: the audience of the new token (or `resource`).",
        },
        scope: {
          ...string,
          description:
            "Token exchange: at most the subject token's scopes; `client_credentials`: the scopes asked for (space-separated).",
        },
        requested_token_type: { ...string, description: "`urn:ietf:params:oauth:token-type:access_token`." },
        impersonate: {
          ...string,
          description: "Token exchange, an authsvc extension: `true` asks for impersonation (no `act`).",
        },
      }),
      responses: {
        200: { description: "The tokens.", body: TOKENS, headers: { ...noStore, ...dpopNonce } },
        ...oauthErrors,
      },
      errors: [404],
    },
    (ctx) => {
      const offered = ctx.grants.at("/oauth/token");
      return [
        gate(ctx),
        async (c) => {
          const deps = c.get("deps");
          // Every answer hands out the nonce when nonces are on, refusals before the proof's included.
          offerDpopNonce(c, deps);
          const authed = await authenticated(c);
          if (authed instanceof Response) return authed;
          const { body, client } = authed;
          const grantType = body.grant_type;
          if (!grantType)
            return oauthJson(c, { ok: false, error: failures.tokenGrantTypeMissing() }, tokensJson);
          const grant = offered.lookup(grantType);
          if (grant === undefined)
            return oauthJson(
              c,
              { ok: false, error: failures.tokenGrantTypeUnsupported(grantType) },
              tokensJson,
            );
          // RFC 6749 §5.2: a type this endpoint offers, but not to this client.
          if (!(client.grantTypes as readonly string[]).includes(grantType))
            return oauthJson(
              c,
              { ok: false, error: failures.tokenGrantTypeNotAllowed(grantType) },
              tokensJson,
            );
          // The binding is chosen before the grant runs and handed to it: every grant binds its
          // tokens to the request's key, and one that did not is a fault, never a bearer token.
          const request = proofRequestOf(c, "/oauth/token");
          const binding = await tokenRequestBinding(deps, { ...request, client });
          if (!binding.ok) return oauthJson(c, binding, tokensJson);
          const issued = await grant.run(c, body, client, binding.value);
          if (issued.ok && binding.value !== null && issued.value.boundTo !== binding.value.jkt)
            throw new Error(`grant ${grantType} did not bind its tokens to the request's DPoP key`);
          return oauthJson(c, issued, tokensJson);
        },
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/revoke",
      summary: "Revokes a token of the client (RFC 7009): its session ends.",
      description: "Answered alike whatever the token was (RFC 7009 §2.2).",
      access: "client",
      body: tokenBody({ token: string, token_type_hint: tokenHint }),
      responses: {
        200: { description: "Done, or nothing to do.", body: { $ref: "#/components/schemas/Empty" } },
        ...oauthErrors,
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      async (c) => {
        const authed = await authenticated(c);
        if (authed instanceof Response) return authed;
        const { body, client } = authed;
        const input = { client, token: body.token, hint: body.token_type_hint };
        return oauthJson(c, await revokeToken(c.get("deps"), input), () => ({}));
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/introspect",
      summary: "Whether a token of the client is live, and what it grants (RFC 7662); confidential clients.",
      access: "client",
      body: tokenBody({ token: string, token_type_hint: tokenHint }),
      responses: { 200: { description: "The token's state.", body: INTROSPECTION }, ...oauthErrors },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      async (c) => {
        const authed = await authenticated(c);
        if (authed instanceof Response) return authed;
        const { body, client } = authed;
        const input = { client, token: body.token, hint: body.token_type_hint };
        return oauthJson(c, await introspectToken(c.get("deps"), input), (answer) => answer);
      },
    ],
  ),
];
