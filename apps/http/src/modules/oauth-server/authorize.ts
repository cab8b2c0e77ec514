import { type AuthDeps, authorizationDetails, decideConsent, startAuthorization } from "@authsvc/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { parseBody, text, unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { checkOrigin, oauthFailure, requireOAuthServer } from "./oauth-http.js";

export const ConsentBody = v.object({ action: text });

/**
 * `GET /oauth/authorize` (the browser's start), and the consent page's two calls with the user's
 * session: `GET /oauth/authorizations/{id}` and `POST /oauth/authorizations/{id}/consent`.
 */
export const authorizeRoutes = (deps: AuthDeps) => {
  const gate = requireOAuthServer(deps);
  // An OAuth client's token is refused there, so that no client approves its own requests for more.
  const user = [requireUser(deps)] as const;
  const origin = checkOrigin(deps);
  return new Hono<AppEnv>()
    .get("/oauth/authorize", gate, async (c) => {
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
      });
      // Not redirected (an untrusted redirect URI, or a dynamically registered client): answered here.
      if (!started.ok) return oauthFailure(c, started.error);
      return c.redirect(started.value.location, 302);
    })
    .get("/oauth/authorizations/:authorization_id", gate, origin, ...user, async (c) => {
      const input = { authorizationId: c.req.param("authorization_id"), userId: c.get("auth").user.id };
      const found = unwrap(await authorizationDetails(c.get("deps"), input));
      if (found.kind === "redirect") return c.json({ redirect_url: found.redirectUrl });
      const { authorization, client, user: owner } = found;
      return c.json({
        authorization_id: authorization.authorizationId,
        redirect_uri: authorization.redirectUri,
        client: {
          id: client.id,
          name: client.name ?? "",
          uri: client.uri ?? "",
          logo_uri: client.logoUri ?? "",
        },
        user: { id: owner.id, email: owner.email ?? "" },
        scope: authorization.scope,
        // An authsvc addition to GoTrue's answer: the resource (RFC 8707) the client's tokens will be
        // accepted by, which a consent page shows the user; null when the request names none.
        resource: authorization.resource,
      });
    })
    .post("/oauth/authorizations/:authorization_id/consent", gate, origin, ...user, async (c) => {
      const { action = "" } = parseBody(ConsentBody, await readJsonObject(c));
      const input = {
        authorizationId: c.req.param("authorization_id"),
        userId: c.get("auth").user.id,
        action,
      };
      const { redirectUrl } = unwrap(await decideConsent(c.get("deps"), input));
      return c.json({ redirect_url: redirectUrl });
    });
};
