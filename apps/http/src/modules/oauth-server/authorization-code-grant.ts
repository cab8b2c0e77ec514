import { authorizationCodeGrant } from "@authsvc/core/oauth-server";
import { httpGrant } from "../../http/grants/http-grant.js";

/** `grant_type=authorization_code` at `POST /oauth/token` (OAuth 2.1 §4.1.3): a code of the client's, its verifier. */
export const authorizationCodeHttpGrant = httpGrant(authorizationCodeGrant, {
  "/oauth/token": {
    read: (form, client) => ({
      client,
      code: form.code ?? "",
      codeVerifier: form.code_verifier,
      redirectUri: form.redirect_uri,
      resource: form.resource,
    }),
  },
});
