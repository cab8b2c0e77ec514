import { type AuthDeps, listConsents, revokeConsent, userinfoClaims } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { requireOAuthServer } from "./oauth-http.js";

/** `GET /oauth/userinfo` (OIDC Core §5.3) and the signed-in user's consents (`/user/oauth/grants`). */
export const oauthUserRoutes = (deps: AuthDeps) => {
  const gate = requireOAuthServer(deps);
  const user = requireUser(deps);
  // The one endpoint of authsvc a client's token is for.
  const client = requireUser(deps, { accepts: ["client", "user"] });
  return new Hono<AppEnv>()
    .get("/oauth/userinfo", gate, client, async (c) => {
      const auth = c.get("auth");
      // The scopes are the session's, as granted: never what a hook may have put in the token.
      const session = auth.sessionId ? await c.get("deps").store.sessions.find(auth.sessionId) : null;
      c.header("Cache-Control", "no-store");
      return c.json(userinfoClaims(auth.user, session?.scopes));
    })
    .get("/user/oauth/grants", gate, user, async (c) => {
      const consents = await listConsents(c.get("deps"), c.get("auth").user.id);
      return c.json(
        consents.map(({ client, consent }) => ({
          client: {
            id: client.id,
            name: client.name ?? "",
            uri: client.uri ?? "",
            logo_uri: client.logoUri ?? "",
          },
          scopes: consent.scopes.split(" ").filter(Boolean),
          // An authsvc addition: the resources (RFC 8707) the user approved the client's tokens for.
          resources: consent.resources,
          granted_at: consent.grantedAt.toISOString(),
        })),
      );
    })
    .delete("/user/oauth/grants", gate, user, async (c) => {
      const { user: owner } = c.get("auth");
      const input = {
        userId: owner.id,
        actorUsername: owner.phone || owner.email || "",
        clientId: c.req.query("client_id"),
      };
      unwrap(await revokeConsent(c.get("deps"), input));
      return c.body(null, 204);
    });
};
