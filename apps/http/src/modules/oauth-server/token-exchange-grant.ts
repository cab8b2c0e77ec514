import { tokenExchangeGrant } from "@authsvc/core/oauth-server";
import { httpGrant } from "../../http/grants/http-grant.js";

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` at `POST /oauth/token` (RFC 8693 §2.1):
 * a user's access token, issued to the authenticated client, for one to another audience
 * (docs/oauth-token-exchange.md).
 */
export const tokenExchangeHttpGrant = httpGrant(tokenExchangeGrant, {
  "/oauth/token": {
    read: (form, client) => ({
      client,
      subjectToken: form.subject_token,
      subjectTokenType: form.subject_token_type,
      actorToken: form.actor_token,
      actorTokenType: form.actor_token_type,
      resource: form.resource,
      audience: form.audience,
      scope: form.scope,
      requestedTokenType: form.requested_token_type,
      impersonate: form.impersonate,
    }),
  },
});
