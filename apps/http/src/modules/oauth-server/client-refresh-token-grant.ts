import { clientRefreshTokenGrant } from "@authsvc/core/oauth-server";
import { httpGrant } from "../../http/grants/http-grant.js";

/**
 * `grant_type=refresh_token` at `POST /oauth/token` (OAuth 2.1 §4.3): the refresh token of a session
 * issued to the authenticated client (a first-party session's is refreshed at `POST /token`,
 * refresh-token.ts).
 */
export const clientRefreshTokenHttpGrant = httpGrant(clientRefreshTokenGrant, {
  "/oauth/token": { read: (form, client) => ({ client, refreshToken: form.refresh_token ?? "" }) },
});
