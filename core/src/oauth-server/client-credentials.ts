import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import { defineGrant, type MachineTokenClaims } from "../sessions/index.js";
import { scopesOf } from "./authorization.js";
import type { OAuthClient } from "./client.js";
import type { OAuthServerDeps } from "./deps.js";
import { issuerOf } from "./query.js";
import { knownScopes, resourceAllowed, resourceProblem, scopeProblem } from "./scopes.js";
import type { OAuthTokens, TokenRequestBinding } from "./token-grants.js";

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "signer" | "settings">;

export interface ClientCredentialsRequest extends TokenRequestBinding {
  readonly client: OAuthClient;
  readonly scope?: string | undefined;
  readonly resource?: string | undefined;
}

/**
 * `grant_type=client_credentials` (RFC 6749 §4.4): a confidential client, authenticated, asks for a
 * token of its own — no user, no session, no refresh token, no ID token. Its scopes are those asked
 * for, each among the client's allowed scopes (none asked: all of them); its `aud` the resource asked
 * for (RFC 8707), refused as `OAUTH_SERVER_ALLOWED_RESOURCES` refuses it at `/oauth/authorize`. The
 * token's kind is `machine` (sub = client_id, no session_id), which no endpoint of a user accepts;
 * its `role` is `OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE`, never a user's. Nothing is stored: the token is
 * self-contained, and valid until it expires. With a DPoP proof (RFC 9449 §5) it is bound to the
 * proof's key (`cnf.jkt`), as every token `/oauth/token` issues.
 */
export async function issueClientCredentials(
  deps: Deps,
  input: ClientCredentialsRequest,
): Promise<Result<OAuthTokens>> {
  const { client } = input;
  // The token endpoint authenticated the client; a public one proves nothing about who asks.
  if (client.clientType !== "confidential") return err(failures.clientCredentialsNeedConfidentialClient());
  const resource = input.resource || null;
  if (resource !== null) {
    const problem = resourceProblem(resource);
    if (problem !== null) return err(failures.tokenResourceInvalid(problem));
    if (!resourceAllowed(deps, resource)) return err(failures.authorizeResourceNotAllowed());
  }
  if ((input.scope?.length ?? 0) > 4096) return err(failures.tokenScopeInvalid("scope is too long"));
  const allowed = scopesOf(client.scope ?? "");
  const asked = input.scope === undefined || input.scope.trim() === "" ? null : scopesOf(input.scope);
  const known = await knownScopes(deps, asked ?? allowed);
  // None asked: every allowed scope the request may carry (one bound to another resource left out).
  const scopes =
    asked ?? allowed.filter((s) => scopeProblem(known, [s], resource, client.scope ?? "") === null);
  const problem = scopeProblem(known, scopes, resource, client.scope ?? "");
  if (problem !== null) return err(failures.tokenScopeInvalid(problem));
  const now = deps.clock.now();
  const iat = Math.floor(now.getTime() / 1000);
  const expiresIn = deps.settings.jwt.exp;
  const scope = scopes.join(" ");
  const claims: MachineTokenClaims = {
    iss: issuerOf(deps.settings),
    sub: client.id,
    ...(resource !== null ? { aud: resource } : {}),
    exp: iat + expiresIn,
    iat,
    jti: deps.random.uuid(),
    client_id: client.id,
    scope,
    role: deps.settings.oauthServer.clientCredentialsRole,
    ...(input.dpop ? { cnf: { jkt: input.dpop.jkt } } : {}),
  };
  return ok({
    accessToken: await deps.signer.sign(claims),
    expiresIn,
    scope,
    ...(input.dpop ? { boundTo: input.dpop.jkt } : {}),
  });
}

export const clientCredentialsGrant = defineGrant("client_credentials", issueClientCredentials);
