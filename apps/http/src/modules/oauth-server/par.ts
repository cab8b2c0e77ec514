import { checkDpopProof } from "@authsvc/core/dpop";
import { pushAuthorizationRequest } from "@authsvc/core/oauth-server";
import { jsonObject } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { offerDpopNonce, proofRequestOf } from "./dpop-http.js";
import { oauthJson, requireOAuthServer } from "./oauth-http.js";
import { authenticated, clientFields, noStore, oauthErrors, TYPES } from "./token.js";

const string = { type: "string" } as const;

const PUSHED = closed(
  {
    request_uri: {
      ...string,
      description: "`urn:ietf:params:oauth:request_uri:<random>`: what `/oauth/authorize` is sent, once.",
    },
    expires_in: { type: "integer", description: "Seconds it can be used for (`OAUTH_SERVER_PAR_TTL`)." },
  },
  ["request_uri", "expires_in"],
  "A pushed authorization request's reference (RFC 9126 §2.2).",
);

const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);

/** `POST /oauth/par` (RFC 9126): a client pushes its authorization request before sending the browser. */
export const parEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/par",
      summary:
        "Pushes an authorization request (RFC 9126): answers the `request_uri` `/oauth/authorize` takes.",
      description: [
        "The client authenticates as at `/oauth/token` (a public client sends its `client_id`). The",
        "parameters are those of `/oauth/authorize`, checked as it checks them; a problem is an OAuth",
        "error body (there is no redirect). The `request_uri` is used once, by this client, within",
        "`OAUTH_SERVER_PAR_TTL`: `/oauth/authorize?client_id=…&request_uri=…` then ignores every other",
        "parameter. A `DPoP` header's valid proof (RFC 9449 §10.1) binds the code to the proof's key, as",
        "`dpop_jkt` does: the code is then exchanged only with a proof of that key.",
      ].join(" "),
      access: "client",
      body: {
        schema: jsonObject({
          redirect_uri: string,
          response_type: string,
          scope: string,
          state: string,
          resource: string,
          code_challenge: string,
          code_challenge_method: string,
          nonce: string,
          ui_locales: string,
          dpop_jkt: {
            ...string,
            description:
              "RFC 9449 §10: the JWK SHA-256 thumbprint of the DPoP key the code is exchanged with a proof of. A `DPoP` header's proof binds the request to its key too; both given, they must agree (`invalid_dpop_proof`).",
          },
          ...clientFields,
        }),
        contentTypes: TYPES,
      },
      responses: {
        201: { description: "The request's reference.", body: PUSHED, headers: noStore },
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
        const {
          client_secret: _secret,
          client_assertion: _assertion,
          client_assertion_type: _type,
          ...parameters
        } = body;
        const deps = c.get("deps");
        offerDpopNonce(c, deps);
        // RFC 9449 §10.1: a proof here binds the code to its key; without one, dpop_jkt may.
        const request = proofRequestOf(c, "/oauth/par");
        const dpop = request.proof === undefined ? null : await checkDpopProof(deps, request);
        if (dpop !== null && !dpop.ok) return oauthJson(c, dpop, () => ({}));
        const pushed = await pushAuthorizationRequest(deps, {
          client,
          parameters,
          dpop: dpop === null ? null : dpop.value,
        });
        if (!pushed.ok) return oauthJson(c, pushed, () => ({}));
        c.header("Cache-Control", "no-store");
        return c.json({ request_uri: pushed.value.requestUri, expires_in: pushed.value.expiresIn }, 201);
      },
    ],
  ),
];
