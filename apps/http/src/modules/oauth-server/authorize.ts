import { authorizationDetails, decideConsent, startAuthorization } from "@authsvc/core/oauth-server";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { parseBody, text, unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { redirect } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { CLIENT_SUMMARY, oauthErrorOr, REDIRECT_URL } from "./oauth.openapi-schemas.js";
import { checkOrigin, clientSummary, oauthFailure, requireOAuthServer } from "./oauth-http.js";

export const ConsentBody = v.object({ action: text });

const q = (name: string, description: string) => ({ name, description });
const authorizationId = [{ name: "authorization_id", description: "The authorization request's id." }];

const DETAILS = closed(
  {
    authorization_id: { type: "string" },
    redirect_uri: { type: "string", format: "uri" },
    client: CLIENT_SUMMARY,
    user: closed({ id: { type: "string", format: "uuid" }, email: { type: "string" } }),
    scope: { type: "string", description: "Space-separated." },
    resource: {
      type: ["string", "null"],
      format: "uri",
      description:
        "An authsvc addition: the resource (RFC 8707) the request names, whose server will accept the client's tokens (they name it in `aud`); a consent page shows it. Null when the request names none. An earlier consent approves a request without asking only when it was given for this resource too.",
    },
    scopes: {
      type: "array",
      items: closed({ scope: { type: "string" }, description: { type: ["string", "null"] } }, [
        "scope",
        "description",
      ]),
      description:
        "An authsvc addition: each scope asked for, with a custom scope's description (`/admin/oauth/scopes`) for the consent page to show; null for OpenID Connect's.",
    },
  },
  undefined,
  "A pending authorization request, for the consent screen.",
);

/** The path's id: always there, as the route matched it. */
const authorizationIdOf = (c: Context<AppEnv>) => c.req.param("authorization_id") ?? "";
const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);
const origin = ({ auth }: ModuleContext) => checkOrigin(auth);
// An OAuth client's token is refused there, so that no client approves its own requests for more.
const signedIn = ({ auth }: ModuleContext) => requireUser(auth);

/**
 * `GET /oauth/authorize` (the browser's start), and the consent page's two calls with the user's
 * session: `GET /oauth/authorizations/{id}` and `POST /oauth/authorizations/{id}/consent`.
 */
export const authorizeEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/oauth/authorize",
      summary: "Starts an authorization (OAuth 2.1 §4.1.1): redirects to the consent page.",
      description: [
        "An unknown client or a redirect URI it did not register is answered here (400). Any other",
        "problem is sent back to the redirect URI (`error=invalid_request`, …) when an admin created",
        "the client, and answered here as an OAuth error body when it registered itself (an open",
        "redirector otherwise, RFC 9700 §4.11.2); a `resource` outside `OAUTH_SERVER_ALLOWED_RESOURCES`",
        "is `invalid_target` (RFC 8707 §2). At most 60 requests per 5 minutes per client address",
        "by default (`RATE_LIMIT_OAUTH_AUTHORIZE`). With `OAUTH_SERVER_REQUIRE_PAR` on, or for a client",
        "registered with `require_pushed_authorization_requests`, a request without `request_uri` is",
        "refused (`invalid_request`).",
      ].join(" "),
      access: "public",
      query: [
        q("client_id", "The client's id."),
        q("redirect_uri", "One of the client's registered redirect URIs."),
        q("response_type", "`code`."),
        q("scope", "Space-separated, from `openid profile email phone offline_access`."),
        q("state", "Returned unchanged to the redirect URI."),
        q("resource", "The resource the token is for (RFC 8707)."),
        q("code_challenge", "PKCE's challenge (required)."),
        q("code_challenge_method", "`S256` (`plain` is refused)."),
        q("nonce", "Copied into the ID token."),
        q("ui_locales", "The languages the consent page should speak, by preference; passed on to it."),
        q(
          "dpop_jkt",
          "RFC 9449 §10: the JWK SHA-256 thumbprint of a DPoP key; the code is then exchanged only with a proof of that key (`invalid_grant` otherwise).",
        ),
        q(
          "request_uri",
          "A pushed request's reference (RFC 9126, `POST /oauth/par`), with `client_id`: the request is the pushed one, every other parameter ignored; used once, by the client that pushed it, before it expires.",
        ),
      ],
      responses: {
        302: redirect("To the consent page with `authorization_id`, or to the redirect URI with an error."),
        400: oauthErrorOr(
          "An unknown client or redirect URI: an error of the catalogue; another problem of a dynamically registered client's request: an OAuth error.",
        ),
        500: oauthErrorOr(
          "`server_error` (no consent page) for a dynamically registered client, or a fault.",
        ),
      },
      errors: [404, 429],
    },
    (ctx) => [
      gate(ctx),
      async (c) => {
        const q = (name: string) => c.req.query(name);
        const started = await startAuthorization(c.get("deps"), {
          clientId: q("client_id"),
          redirectUri: q("redirect_uri"),
          responseType: q("response_type"),
          scope: q("scope"),
          state: q("state"),
          resource: q("resource"),
          codeChallenge: q("code_challenge"),
          codeChallengeMethod: q("code_challenge_method"),
          nonce: q("nonce"),
          uiLocales: q("ui_locales"),
          requestUri: q("request_uri"),
          dpopJkt: q("dpop_jkt"),
        });
        // RFC 9700 §4.2: the page the browser goes on to (a client's, with a code or an error, or the
        // consent page) is not told where it came from.
        c.header("Referrer-Policy", "no-referrer");
        // Not redirected (an untrusted redirect URI, or a dynamically registered client): answered here.
        if (!started.ok) return oauthFailure(c, started.error);
        return c.redirect(started.value.location, 302);
      },
    ],
    // RFC 9700 §2.6: the authorization endpoint is a browser's, never a cross-origin fetch's.
    { limit: { name: "oauth_authorize", per5Min: "oauthAuthorize" }, crossOrigin: "refused" },
  ),
  endpoint(
    {
      method: "get",
      path: "/oauth/authorizations/{authorization_id}",
      summary: "What the consent page shows: the client, the user, the scopes and the resource asked for.",
      description:
        "A request the user already consented to (every scope asked, and the resource named, if any) is answered with where to go next.",
      access: "user",
      pathParameters: authorizationId,
      responses: {
        200: { description: "The request, or where to go.", body: { anyOf: [DETAILS, REDIRECT_URL] } },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      origin(ctx),
      signedIn(ctx),
      async (c) => {
        const { user, sessionId } = c.get("auth");
        // The caller's session: its level (aal2 after a second factor) goes into the code.
        const input = { authorizationId: authorizationIdOf(c), userId: user.id, sessionId };
        const found = unwrap(await authorizationDetails(c.get("deps"), input));
        if (found.kind === "redirect") return c.json({ redirect_url: found.redirectUrl });
        const { authorization, client, user: owner, scopes } = found;
        return c.json({
          authorization_id: authorization.authorizationId,
          redirect_uri: authorization.redirectUri,
          client: clientSummary(client),
          user: { id: owner.id, email: owner.email ?? "" },
          scope: authorization.scope,
          // An authsvc addition to GoTrue's answer: the resource (RFC 8707) the client's tokens will be
          // accepted by, which a consent page shows the user; null when the request names none.
          resource: authorization.resource,
          // An authsvc addition: each scope with its custom scope's description (null: OpenID Connect's).
          scopes,
        });
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/authorizations/{authorization_id}/consent",
      summary: "The user's decision: `approve` or `deny`.",
      access: "user",
      pathParameters: authorizationId,
      body: { schema: ConsentBody },
      responses: {
        200: {
          description: "Where the browser goes next: the client, with a code or an error.",
          body: REDIRECT_URL,
        },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      origin(ctx),
      signedIn(ctx),
      async (c) => {
        const { action = "" } = parseBody(ConsentBody, await readJsonObject(c));
        const { user, sessionId } = c.get("auth");
        const input = { authorizationId: authorizationIdOf(c), userId: user.id, sessionId, action };
        const { redirectUrl } = unwrap(await decideConsent(c.get("deps"), input));
        return c.json({ redirect_url: redirectUrl });
      },
    ],
  ),
];
