import type { Operation } from "../../http/operation.js";
import { jsonObject } from "../../http/operation.js";
import { INTROSPECTION, oauthErrorOr, TOKENS } from "../../modules/oauth-server/oauth.openapi-schemas.js";

const string = { type: "string" } as const;
const clientFields = {
  client_id: { ...string, description: "`client_secret_post` and `none`: the client's id." },
  client_secret: { ...string, description: "`client_secret_post`: the client's secret." },
};
/** Form-encoded, as OAuth clients send (a repeated field is refused); JSON is read too. */
const TYPES = ["application/x-www-form-urlencoded", "application/json"];
const tokenBody = (properties: Record<string, { type: string; description?: string }>) => ({
  schema: jsonObject({ ...properties, ...clientFields }),
  contentTypes: TYPES,
});
const tokenHint = { ...string, description: "`access_token` or `refresh_token`: which to try first." };
const noStore = { "cache-control": { description: "`no-store`.", required: true } };
const oauthErrors = {
  400: oauthErrorOr("An OAuth error; a refused client authentication is `invalid_credentials`."),
  500: oauthErrorOr("`server_error` (no signing key for the ID token), or a fault."),
};

/** The token, revocation and introspection endpoints (routes/oauth/token.ts). */
export const tokenEndpointOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/oauth/token",
    summary: "Exchanges an authorization code, or a refresh token, for tokens (OAuth 2.1 §3.2).",
    access: "client",
    body: tokenBody({
      grant_type: { ...string, description: "`authorization_code` or `refresh_token`." },
      code: string,
      code_verifier: string,
      redirect_uri: string,
      resource: string,
      refresh_token: string,
    }),
    responses: { 200: { description: "The tokens.", body: TOKENS, headers: noStore }, ...oauthErrors },
    errors: [404],
  },
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
  {
    method: "post",
    path: "/oauth/introspect",
    summary: "Whether a token of the client is live, and what it grants (RFC 7662); confidential clients.",
    access: "client",
    body: tokenBody({ token: string, token_type_hint: tokenHint }),
    responses: { 200: { description: "The token's state.", body: INTROSPECTION }, ...oauthErrors },
    errors: [404],
  },
];
