import { idTokenGrant } from "@authsvc/core/external";
import { authenticate } from "@authsvc/core/sessions";
import * as v from "valibot";
import { filledText, flag, parseBody, text, unwrap } from "../../http/body.js";
import { httpGrant } from "../../http/grants/http-grant.js";
import { grantFailure, oauthError } from "../../http/grants/oauth-errors.js";
import { logLogin } from "../../http/login-log.js";
import { bearerToken } from "../../http/middleware/auth.js";
import { sessionJson } from "../../http/presenters/session-json.js";

const IdTokenGrant = v.object({
  id_token: filledText,
  access_token: text,
  nonce: filledText,
  provider: filledText,
  client_id: text,
  issuer: text,
  link_identity: flag,
});

/** `grant_type=id_token`: an OpenID provider's ID token, optionally linked to the signed-in user. */
export const idTokenHttpGrant = httpGrant(idTokenGrant, {
  "/token": {
    body: IdTokenGrant,
    handle: async (c, json, run) => {
      const body = parseBody(IdTokenGrant, json);
      // The reference answers these as OAuth errors, its words spaces and all (as the refusals of the
      // token itself, oauth-errors.ts).
      if (!body.id_token) return oauthError(c, "invalid request", "id_token required");
      if (!body.provider)
        return oauthError(c, "invalid request", "provider or client_id and issuer required");
      let linkTargetId: string | undefined;
      let linkSessionId: string | null | undefined;
      if (body.link_identity) {
        const token = bearerToken(c.req.header("authorization"));
        if (!token)
          return oauthError(
            c,
            "invalid request",
            "Linking requires a valid user access token in Authorization",
          );
        // The account's owner alone links to it: a first-party access token, never a client's or an ID token.
        const caller = unwrap(await authenticate(c.get("deps"), { bearerToken: token, accepts: ["user"] }));
        linkTargetId = caller.user.id;
        linkSessionId = caller.sessionId;
      }
      const result = await run({
        provider: body.provider,
        idToken: body.id_token,
        nonce: body.nonce,
        linkTargetId,
        linkSessionId,
      });
      if (!result.ok) return grantFailure(c, "/token", result.error);
      logLogin(c, { method: "oidc", userId: result.value.user.id, provider: body.provider });
      return c.json(sessionJson(result.value));
    },
  },
});
