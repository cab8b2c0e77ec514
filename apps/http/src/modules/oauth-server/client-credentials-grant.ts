import { clientCredentialsGrant } from "@authsvc/core/oauth-server";
import { httpGrant } from "../../http/grants/http-grant.js";

/**
 * `grant_type=client_credentials` at `POST /oauth/token` (RFC 6749 §4.4): a confidential client's own
 * token, for the scopes and the resource (RFC 8707) it names.
 */
export const clientCredentialsHttpGrant = httpGrant(clientCredentialsGrant, {
  "/oauth/token": {
    read: (form, client) => ({ client, scope: form.scope, resource: form.resource }),
  },
});
