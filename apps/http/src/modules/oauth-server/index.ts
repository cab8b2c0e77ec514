import { idTokenSigner } from "@authsvc/adapters";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { authorizationCodeHttpGrant } from "./authorization-code-grant.js";
import { authorizeEndpoints } from "./authorize.js";
import { clientRefreshTokenHttpGrant } from "./client-refresh-token-grant.js";
import { clientEndpoints } from "./clients.js";
import { discoveryEndpoints } from "./discovery.js";
import * as oauthServer from "./section.js";
import { tokenEndpoints } from "./token.js";
import { oauthUserEndpoints } from "./user.js";

/** authsvc as an OAuth 2.1 / OpenID Connect provider (docs/oauth-server.md). */
export const oauthServerModule: HttpModule = {
  name: "oauth-server",
  section: sectionOf(oauthServer),
  settings: (config) => ({ oauthServer: oauthServer.oauthServerSettings(config) }),
  ports: ({ config }) => ({ idTokens: idTokenSigner(config.jwt.keys) }),
  endpoints: [
    ...discoveryEndpoints,
    ...authorizeEndpoints,
    ...tokenEndpoints,
    ...clientEndpoints,
    ...oauthUserEndpoints,
  ],
  grants: [authorizationCodeHttpGrant, clientRefreshTokenHttpGrant],
  statuses: {
    oauth_client_not_found: 404,
    oauth_authorization_not_found: 404,
    oauth_consent_not_found: 404,
    oauth_dynamic_client_registration_disabled: 403,
    invalid_request: 400,
    invalid_client: 400,
    unauthorized_client: 400,
    invalid_grant: 400,
    unsupported_grant_type: 400,
    invalid_scope: 400,
    invalid_target: 400,
    access_denied: 400,
    server_error: 500,
  },
  failureStatuses: {
    // /oauth/authorize answers an unknown client with 400 (the admin API with the code's 404).
    authorizeClientNotFound: 400,
  },
};
