import { createHash } from "node:crypto";
import { failures } from "@authsvc/core";
import type {
  AuthorizationRequest,
  ExternalProvider,
  ExternalUser,
  ProviderTokens,
} from "@authsvc/core/external";
import {
  type AuthorizationServer,
  authorizationCodeGrantRequest,
  type Client,
  ClientSecretBasic,
  ClientSecretPost,
  nopkce,
  skipStateCheck,
  validateAuthResponse,
} from "oauth4webapi";
import { type ProviderIdTokens, withCause } from "./id-token.js";
import { storablePerson, tokensOf } from "./provider-answers.js";
import {
  getJson,
  isObject,
  jsonBody,
  PROVIDER_TIMEOUT_MS,
  ProviderCallError,
  providerReason,
  redact,
  requestOptions,
  wireReason,
} from "./provider-call.js";
import type { ProviderSettings, ProviderSpec } from "./provider-spec.js";

/**
 * The generic OAuth 2.0 client every provider runs on. oauth4webapi builds and authenticates the
 * token request; the answer is read here, more leniently than oauth4webapi would, because real
 * providers bend the protocol: GitHub answers a refused code with HTTP 200 and an `error` body, WorkOS
 * and Figma leave out `token_type`, and ID tokens are checked in full (signature included) by
 * `idTokens` rather than trusted for having come over TLS.
 */
export function oauthProvider(
  name: string,
  spec: ProviderSpec,
  settings: ProviderSettings,
  idTokens: ProviderIdTokens | null,
): ExternalProvider {
  const clientId = settings.clientIds[0];
  if (!clientId) throw new Error(`${name}: a client id is required`);
  const timeoutMs = settings.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const as: AuthorizationServer = {
    issuer: new URL(spec.tokenUrl).origin,
    authorization_endpoint: spec.authorizationUrl,
    token_endpoint: spec.tokenUrl,
  };
  const client: Client = { client_id: clientId };
  const secrets = [settings.secret, encodeURIComponent(settings.secret)];
  const reasonOf = (error: unknown) => redact(wireReason(error, timeoutMs), secrets);

  const fetchImpl = settings.fetch ?? fetch;

  async function exchange(code: string, codeVerifier: string | undefined): Promise<ProviderTokens> {
    const auth =
      spec.clientAuth === "basic" ? ClientSecretBasic(settings.secret) : ClientSecretPost(settings.secret);
    const callback = validateAuthResponse(as, client, new URLSearchParams({ code }), skipStateCheck);
    const response = await authorizationCodeGrantRequest(
      as,
      client,
      auth,
      callback,
      settings.redirectUri,
      spec.pkce && codeVerifier ? codeVerifier : nopkce,
      requestOptions(timeoutMs, fetchImpl),
    );
    const body = await jsonBody(response);
    const ok = response.status >= 200 && response.status <= 299;
    if (!ok || !isObject(body) || typeof body.error === "string") {
      throw new ProviderCallError(`token endpoint: ${providerReason(response.status, body)}`);
    }
    return tokensOf(body);
  }

  const provider: ExternalProvider = {
    name,
    ...(spec.emailOptional ? { emailOptional: true } : {}),
    authorizationUrl(request: AuthorizationRequest): string {
      const url = new URL(spec.authorizationUrl);
      // The client's extra parameters first, so that none of them can replace a protocol parameter.
      for (const [key, value] of Object.entries(request.extraParams)) url.searchParams.set(key, value);
      for (const [key, value] of Object.entries(spec.authorizationParams ?? {}))
        url.searchParams.set(key, value);
      url.searchParams.set("client_id", clientId);
      url.searchParams.set("redirect_uri", settings.redirectUri);
      url.searchParams.set("response_type", "code");
      const asked = request.scopes.filter((s) => s !== "");
      const base = spec.requestScopesReplace && asked.length > 0 ? [] : spec.scopes;
      const scopes = [...new Set([...base, ...asked])];
      if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "));
      url.searchParams.set("state", request.state);
      if (spec.pkce && request.codeVerifier) {
        url.searchParams.set("code_challenge", s256(request.codeVerifier));
        url.searchParams.set("code_challenge_method", "S256");
      }
      // Spaces as %20, not "+": Apple rejects "+" in scope, and every provider reads %20.
      url.search = url.search.replaceAll("+", "%20");
      return url.toString();
    },
    async exchangeCode(code: string, codeVerifier?: string): Promise<ProviderTokens> {
      try {
        return await exchange(code, codeVerifier);
      } catch (error) {
        throw withCause(failures.externalCodeExchangeFailed(code.slice(0, 4)), reasonOf(error));
      }
    },
    async fetchUser(tokens: ProviderTokens): Promise<ExternalUser> {
      try {
        const person = await spec.fetchUser({
          tokens,
          clientId,
          secret: settings.secret,
          getJson: (url, headers) => getJson(url, tokens.accessToken, timeoutMs, headers, fetchImpl),
          idTokenClaims: () => {
            if (!idTokens || !tokens.idToken) throw new ProviderCallError("the token answer has no id_token");
            return idTokens.claims(tokens.idToken);
          },
        });
        return storablePerson(person);
      } catch (error) {
        const reason = isAuthErrorWithCause(error) ? String(error.cause) : reasonOf(error);
        throw withCause(failures.externalUserFetchFailed(), reason);
      }
    },
  };
  const { withCallbackUser } = spec;
  if (withCallbackUser) {
    provider.withCallbackUser = (user, formUser) => storablePerson(withCallbackUser(user, formUser));
  }
  return provider;
}

function isAuthErrorWithCause(error: unknown): error is Error & { cause: unknown } {
  return error instanceof Error && error.name === "AuthError" && error.cause !== undefined;
}

/** The S256 code challenge of a PKCE verifier (RFC 7636 §4.2). */
const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");
