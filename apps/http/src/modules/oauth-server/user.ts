import { listConsents, revokeConsent, userinfoClaims } from "@authsvc/core/oauth-server";
import { unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { CLIENT_SUMMARY, USERINFO } from "./oauth.openapi-schemas.js";
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

const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);
const signedIn = ({ auth }: ModuleContext) => requireUser(auth);
// The one endpoint of authsvc a client's token is for.
const clientOrUser = ({ auth }: ModuleContext) => requireUser(auth, { accepts: ["client", "user"] });

/** `GET /oauth/userinfo` (OIDC Core §5.3) and the signed-in user's consents (`/user/oauth/grants`). */
export const oauthUserEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/oauth/userinfo",
      summary: "The claims about the user that the token's scopes grant (OIDC Core §5.3).",
      access: "user",
      responses: { 200: { description: "The claims.", body: USERINFO } },
      errors: [404],
    },
    (ctx) => [
      gate(ctx),
      clientOrUser(ctx),
      async (c) => {
        const auth = c.get("auth");
        // The scopes are the session's, as granted: never what a hook may have put in the token.
        const session = auth.sessionId ? await c.get("deps").store.sessions.find(auth.sessionId) : null;
        c.header("Cache-Control", "no-store");
        return c.json(userinfoClaims(auth.user, session?.scopes));
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
