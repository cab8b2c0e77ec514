import type { DpopBinding } from "../dpop/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import { scopesOf } from "./authorization.js";
import {
  AUTHORIZE_PARAMETERS,
  type AuthorizeRequest,
  REQUEST_URI_PREFIX,
  readRequest,
  resourceAllowed,
} from "./authorize.js";
import { type OAuthClient, redirectUriProblem } from "./client.js";
import type { OAuthServerDeps } from "./deps.js";
import { knownScopes, scopeProblem } from "./scopes.js";

/** The answer of `POST /oauth/par` (RFC 9126 §2.2). */
export interface PushedRequestAnswer {
  readonly requestUri: string;
  readonly expiresIn: number;
}

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "settings" | "tokens">;

/** The longest a pushed parameter may be; `readRequest` bounds each field more tightly still. */
const MAX_PARAMETER = 4096;

/**
 * `POST /oauth/par` (RFC 9126): the authenticated client's authorization request, checked as
 * `/oauth/authorize` checks it, is stored for `OAUTH_SERVER_PAR_TTL` and referred to by a random
 * `request_uri` (only its hash is stored). Every problem is an OAuth error body: there is no redirect.
 * A request pushed with a DPoP proof (`dpop`, checked by the caller) binds its code to the proof's key
 * as `dpop_jkt` does (RFC 9449 §10.1); both given, they must name the same key.
 */
export async function pushAuthorizationRequest(
  deps: Deps,
  input: {
    readonly client: OAuthClient;
    readonly parameters: Readonly<Record<string, string>>;
    readonly dpop?: DpopBinding | null | undefined;
  },
): Promise<Result<PushedRequestAnswer>> {
  const { client, parameters } = input;
  if (parameters.request_uri !== undefined) return err(failures.pushedRequestUriPushed());
  if (parameters.request !== undefined) return err(failures.pushedRequestObjectUnsupported());
  if (parameters.client_id !== undefined && parameters.client_id !== client.id)
    return err(failures.pushedRequestClientMismatch());
  const stored: Record<string, string> = {};
  const q: Record<string, string> = {};
  for (const [name, field] of Object.entries(AUTHORIZE_PARAMETERS)) {
    const value = parameters[name];
    if (value === undefined || name === "client_id") continue;
    if (value.length > MAX_PARAMETER) return err(failures.authorizeRequestInvalid(`${name} is too long`));
    stored[name] = value;
    q[field] = value;
  }
  if (input.dpop) {
    if (stored.dpop_jkt !== undefined && stored.dpop_jkt !== input.dpop.jkt)
      return err(failures.pushedRequestDpopKeyMismatch());
    stored.dpop_jkt = input.dpop.jkt;
    q.dpopJkt = input.dpop.jkt;
  }
  const request = q as AuthorizeRequest;
  if (
    !request.redirectUri ||
    !client.redirectUris.includes(request.redirectUri) ||
    redirectUriProblem(request.redirectUri) !== null
  )
    return err(failures.pushedRequestRedirectUriInvalid());
  const read = readRequest(deps, request);
  if ("problem" in read) return err(failures.authorizeRequestInvalid(read.problem));
  if (request.resource && !resourceAllowed(deps, request.resource))
    return err(failures.authorizeResourceNotAllowed());
  const asked = scopesOf(read.scope);
  const unsupported = scopeProblem(
    await knownScopes(deps, asked),
    asked,
    request.resource || null,
    client.scope,
  );
  if (unsupported !== null) return err(failures.authorizeScopeInvalid(unsupported));
  if (!client.grantTypes.includes("authorization_code")) return err(failures.authorizeGrantTypeMissing());
  const reference = `${deps.tokens.generate()}${deps.tokens.generate()}`;
  const now = deps.clock.now();
  const ttl = deps.settings.oauthServer.parTtlSeconds;
  await deps.store.oauthPushedRequests.insert({
    id: deps.random.uuid(),
    requestUriHash: deps.tokens.hash(reference),
    clientId: client.id,
    parameters: stored,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttl * 1000),
  });
  return ok({ requestUri: `${REQUEST_URI_PREFIX}${reference}`, expiresIn: ttl });
}
