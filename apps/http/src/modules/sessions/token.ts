import { failures } from "@authsvc/core";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { ref } from "../../http/operation.js";
import { endpoint, type ModuleEndpoint } from "../module.js";

/**
 * `POST /token?grant_type=<type>`: the grant types the modules' `grants` offer here. Its body is the
 * requested grant's: the OpenAPI description composes it from the grants' bodies (openapi/document.ts).
 * The per-client limit is `RATE_LIMIT_TOKEN_REFRESH`, or `RATE_LIMIT_WEB3` for the web3 grant
 * (http/middleware/rate-limit.ts).
 */
export const tokenEndpoint: ModuleEndpoint = endpoint(
  {
    method: "post",
    path: "/token",
    summary:
      "Sign in or refresh: a session for a password, a refresh token, a PKCE code, an ID token or a wallet signature.",
    hooks: true,
    access: "public",
    limited: true,
    query: [{ name: "grant_type", description: "The grant type; its fields make the body.", required: true }],
    responses: {
      200: {
        description:
          "A new session (after a PKCE exchange of an external sign-in, with the provider's tokens).",
        body: ref("ExchangedSession"),
      },
      400: {
        description:
          "An error of the catalogue, or an OAuth-style error where the reference answers one (a missing `refresh_token`, a bad ID token).",
        body: ref("OAuthError"),
        orError: true,
      },
    },
    errors: [403, 404, 422],
  },
  ({ grants }) => {
    const offered = grants.at("/token");
    return [
      async (c) => {
        const grantType = c.req.query("grant_type");
        const json = await readJsonObject(c);
        const grant = offered.lookup(grantType);
        if (grant === undefined) throw failures.grantTypeUnsupported();
        return grant.handle(c, json);
      },
    ];
  },
  { limit: { name: "token", per5Min: "token" }, captcha: true },
);
