import {
  CLIENT_DOCUMENT_MAX_BYTES,
  clientAssertionVerifier,
  clientMetadataDocuments,
  guardedFetch,
  idTokenSigner,
  MAX_ANSWER_BYTES,
} from "@authsvc/adapters";
import { sectionOf } from "../../config/sections/section.js";
import { secretBoxOf } from "../../infrastructure/jwt/crypto.js";
import type { HttpModule } from "../module.js";
import { authorizationCodeHttpGrant } from "./authorization-code-grant.js";
import { authorizeEndpoints } from "./authorize.js";
import { clientCredentialsHttpGrant } from "./client-credentials-grant.js";
import { clientRefreshTokenHttpGrant } from "./client-refresh-token-grant.js";
import { clientEndpoints } from "./clients.js";
import { discoveryEndpoints } from "./discovery.js";
import { parEndpoints } from "./par.js";
import { scopeEndpoints } from "./scopes.js";
import * as oauthServer from "./section.js";
import { tokenEndpoints } from "./token.js";
import { tokenExchangeHttpGrant } from "./token-exchange-grant.js";
import { oauthUserEndpoints } from "./user.js";

/** authsvc as an OAuth 2.1 / OpenID Connect provider (docs/oauth-server.md). */
export const oauthServerModule: HttpModule = {
  name: "oauth-server",
  section: sectionOf(oauthServer),
  settings: (config) => ({ oauthServer: oauthServer.oauthServerSettings(config) }),
  ports: ({ config }) => ({
    idTokens: idTokenSigner(config.jwt.keys),
    // The MFA secrets' box: `SECURITY_DB_ENCRYPTION_*` keys, else the key derived from JWT_SECRET.
    clientSecretBox: secretBoxOf(config),
    // A client's jwks_uri: through the guarded fetch, at most 64 KiB, 3 s (docs/oauth-client-authentication.md).
    clientAssertions: clientAssertionVerifier({
      fetch: guardedFetch({
        allowLoopbackForTests: config.oauthServer.allowLoopbackForTests,
        maxAnswerBytes: Math.min(MAX_ANSWER_BYTES, 64 * 1024),
      }),
    }),
    // Client ID metadata documents: every fetch through the outbound guard, 8 KiB at most.
    clientDocuments: clientMetadataDocuments(
      guardedFetch({
        allowLoopbackForTests: config.oauthServer.allowLoopbackForTests,
        maxAnswerBytes: CLIENT_DOCUMENT_MAX_BYTES,
      }),
    ),
  }),
  endpoints: [
    ...discoveryEndpoints,
    ...authorizeEndpoints,
    ...tokenEndpoints,
    ...parEndpoints,
    ...clientEndpoints,
    ...scopeEndpoints,
    ...oauthUserEndpoints,
  ],
  grants: [
    authorizationCodeHttpGrant,
    clientRefreshTokenHttpGrant,
    tokenExchangeHttpGrant,
    clientCredentialsHttpGrant,
  ],
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
    unsupported_token_type: 400,
    access_denied: 400,
    server_error: 500,
  },
  failureStatuses: {
    // /oauth/authorize answers an unknown client with 400 (the admin API with the code's 404).
    authorizeClientNotFound: 400,
  },
};
