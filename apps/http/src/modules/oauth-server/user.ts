import { checkResourceRequest } from "@authsvc/core/dpop";
import type { AuthError } from "@authsvc/core/kernel";
import { listConsents, revokeConsent, userinfoClaims } from "@authsvc/core/oauth-server";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { offerDpopNonce, proofRequestOf } from "./dpop-http.js";
import { CLIENT_SUMMARY, oauthErrorOr, USERINFO } from "./oauth.openapi-schemas.js";
import { clientSummary, requireOAuthServer } from "./oauth-http.js";

const GRANT = closed(
  {
    client: CLIENT_SUMMARY,
    scopes: { type: "array", items: { type: "string" } },
    resources: {
      type: "array",
      items: { type: "string", format: "uri" },
      description:
        "An authsvc addition: the resources (RFC 8707) the user approved the client's tokens for, whose servers accept them.",
    },
    granted_at: { type: "string", format: "date-time" },
  },
  undefined,
  "A client the user consented to, and what to.",
);

/**
 * The session's scopes, but only those the token carries too: a token exchange (RFC 8693) narrows a
 * token's scopes below its session's, and the narrower token must not read more here.
 */
function narrowed(granted: string | undefined, carried: unknown): string | undefined {
  if (!granted || typeof carried !== "string") return granted;
  const held = new Set(carried.split(" "));
  return granted
    .split(" ")
    .filter((scope) => held.has(scope))
    .join(" ");
}

const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);
const signedIn = ({ auth }: ModuleContext) => requireUser(auth);
// The one endpoint of authsvc a client's token is for.
// A client's token may be DPoP-bound: the `DPoP` scheme is read too, and the handler checks the proof.
const clientOrUser = ({ auth }: ModuleContext) =>
  requireUser(auth, { accepts: ["client", "user"], dpop: true });

/** The key a token is bound to: its `cnf.jkt`, else its session's (a hook cannot unbind a token). */
function boundKeyOf(
  claims: Readonly<Record<string, unknown>>,
  sessionJkt: string | undefined,
): string | null {
  const cnf = claims.cnf;
  const jkt = typeof cnf === "object" && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  return typeof jkt === "string" ? jkt : (sessionJkt ?? null);
}

/** A refusal of a resource request (RFC 9449 §7.1, RFC 6750 §3): 401 with a `DPoP` challenge. */
function dpopChallenge(c: Context<AppEnv>, error: AuthError): Response {
  const algs = c.get("deps").settings.dpop.algorithms.join(" ");
  const description = error.message.replaceAll('"', "'");
  c.header(
    "WWW-Authenticate",
    `DPoP error="${error.code}", error_description="${description}", algs="${algs}"`,
  );
  c.header("Cache-Control", "no-store");
  return c.json({ error: error.code, error_description: error.message }, 401);
}

/** `GET /oauth/userinfo` (OIDC Core §5.3) and the signed-in user's consents (`/user/oauth/grants`). */
export const oauthUserEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/oauth/userinfo",
      summary: "The claims about the user that the token's scopes grant (OIDC Core §5.3).",
      access: "user",
      description:
        "A DPoP-bound token (RFC 9449) is presented as `Authorization: DPoP <token>` with a `DPoP` proof of its key whose `ath` hashes it; as `Bearer`, or with a proof of another key, it is refused with 401 and a `WWW-Authenticate: DPoP error=…` challenge. See docs/oauth-dpop.md.",
      responses: {
        200: { description: "The claims.", body: USERINFO },
        401: {
          ...oauthErrorOr(
            "`invalid_token` (a DPoP-bound token as bearer), `invalid_dpop_proof`, `use_dpop_nonce` (with a `DPoP-Nonce` header); or an invalid token.",
          ),
          headers: { "www-authenticate": { description: "`DPoP error=…` for a DPoP refusal." } },
        },
      },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      clientOrUser(ctx),
      async (c) => {
        const auth = c.get("auth");
        // The scopes are the session's, as granted: never what a hook may have put in the token.
        const deps = c.get("deps");
        const session = auth.sessionId ? await deps.store.sessions.find(auth.sessionId) : null;
        // The DPoP binding (RFC 9449 §7): the route is a resource server of the client's tokens.
        const authorization = c.req.header("authorization") ?? "";
        const space = authorization.indexOf(" ");
        const scheme = authorization.slice(0, space).toLowerCase() === "dpop" ? "dpop" : "bearer";
        offerDpopNonce(c, deps);
        const accessToken = authorization.slice(space + 1).trim();
        const checked = await checkResourceRequest(deps, {
          ...proofRequestOf(c, "/oauth/userinfo", accessToken),
          accessToken,
          scheme,
          boundTo: boundKeyOf(auth.claims, session?.dpopJkt),
        });
        if (!checked.ok) return dpopChallenge(c, checked.error);
        c.header("Cache-Control", "no-store");
        return c.json(userinfoClaims(auth.user, narrowed(session?.scopes, auth.claims.scope)));
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/user/oauth/grants",
      summary: "The clients the signed-in user consented to.",
      access: "user",
      responses: { 200: { description: "The grants.", body: { type: "array", items: GRANT } } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      signedIn(ctx),
      async (c) => {
        const consents = await listConsents(c.get("deps"), c.get("auth").user.id);
        return c.json(
          consents.map(({ client, consent }) => ({
            client: clientSummary(client),
            scopes: consent.scopes.split(" ").filter(Boolean),
            // An authsvc addition: the resources (RFC 8707) the user approved the client's tokens for.
            resources: consent.resources,
            granted_at: consent.grantedAt.toISOString(),
          })),
        );
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/user/oauth/grants",
      summary: "Withdraws the consent to a client: its sessions of the user end.",
      access: "user",
      query: [{ name: "client_id", description: "The client's id.", required: true }],
      responses: { 204: { description: "Withdrawn." } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      signedIn(ctx),
      async (c) => {
        const { user: owner } = c.get("auth");
        const input = {
          userId: owner.id,
          actorUsername: owner.phone || owner.email || "",
          clientId: c.req.query("client_id"),
        };
        unwrap(await revokeConsent(c.get("deps"), input));
        return c.body(null, 204);
      },
    ],
  ),
];
