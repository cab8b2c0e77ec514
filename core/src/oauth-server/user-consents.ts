import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import { isClientIdUrl } from "./client-metadata-document.js";
import type { OAuthServerDeps } from "./deps.js";
import type { ConsentView } from "./ports/oauth-store.js";

type Deps = Pick<OAuthServerDeps, "store" | "clock">;

/**
 * `GET /user/oauth/grants`: the clients the user consented to and has not revoked (the reference and
 * auth-js call a consent a "grant" there; here a grant is a grant type of the token endpoints).
 */
export async function listConsents(deps: Pick<Deps, "store">, userId: string): Promise<ConsentView[]> {
  return deps.store.oauthConsents.listActive(userId);
}

/**
 * `DELETE /user/oauth/grants?client_id=`: revokes the user's consent and ends every session the client
 * holds for the user (their refresh tokens stop working at once, their access tokens at the next
 * check of the session), audited as `token_revoked`.
 */
export async function revokeConsent(
  deps: Deps,
  input: { readonly userId: string; readonly actorUsername: string; readonly clientId: string | undefined },
): Promise<Result<void>> {
  if (!input.clientId) return err(failures.consentClientIdMissing());
  let clientId = input.clientId;
  // A client metadata document's client is named by its URL, and stored under its own UUID.
  if (isClientIdUrl(clientId)) {
    const client = await deps.store.oauthClients.findByMetadataUrl(clientId);
    if (client === null) return err(failures.consentNotFound());
    clientId = client.id;
  } else if (!isUuid(clientId)) return err(failures.clientIdMalformed());
  const now = deps.clock.now();
  return deps.store.transaction(async (repos): Promise<Result<void>> => {
    if (!(await repos.oauthConsents.revoke(input.userId, clientId, now)))
      return err(failures.consentNotFound());
    await repos.audit.record({
      action: "token_revoked",
      actorId: input.userId,
      actorUsername: input.actorUsername,
      traits: { oauth_client_id: input.clientId, action: "revoke_oauth_grant" },
      at: now,
    });
    return ok(undefined);
  });
}
