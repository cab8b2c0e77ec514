import type { OAuthAuthorization, OAuthClient } from "../../oauth-server/index.js";
import type { Repositories } from "../../store.js";
import { aToken, at, newHash, newId, seedSession } from "../harness.js";

/** A confidential client with unique id; every optional field unset unless given. */
export function anOAuthClient(fields: Partial<OAuthClient> = {}): OAuthClient {
  return {
    id: newId(),
    secretHash: newHash(),
    registrationType: "manual",
    clientType: "confidential",
    authMethod: "client_secret_basic",
    redirectUris: ["https://app.example/cb", "https://app.example/cb?a=1,2"],
    grantTypes: ["authorization_code", "refresh_token"],
    name: "App",
    uri: null,
    logoUri: null,
    jwks: null,
    jwksUri: null,
    secretSealed: null,
    requirePushedAuthorizationRequests: false,
    scope: null,
    tokenExchangeAudiences: [],
    tokenExchangeImpersonation: false,
    createdAt: at(0),
    updatedAt: at(0),
    postLogoutRedirectUris: [],
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    ...fields,
  };
}

/** A pending request of `clientId`, expiring at `at(600)`. */
export function anAuthorization(
  clientId: string,
  fields: Partial<OAuthAuthorization> = {},
): OAuthAuthorization {
  return {
    id: newId(),
    authorizationId: newId().replaceAll("-", ""),
    clientId,
    userId: null,
    redirectUri: "https://app.example/cb",
    scope: "openid email",
    state: "s",
    resource: null,
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    codeChallengeMethod: "s256",
    nonce: "n",
    status: "pending",
    codeHash: null,
    createdAt: at(0),
    expiresAt: at(600),
    approvedAt: null,
    authTime: null,
    authentication: null,
    sessionId: null,
    ...fields,
  };
}

/** An OAuth session of the client for a new user, with its first refresh token. */
export async function clientSession(store: Repositories, clientId: string) {
  const seeded = await seedSession(store, { oauthClientId: clientId, scopes: "openid email" });
  const token = await store.sessions.insertToken(aToken(seeded.session));
  return { ...seeded, token };
}
