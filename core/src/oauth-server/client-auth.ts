import { failures } from "../failures.js";
import { constantTimeEqual, err, isUuid, ok, type Result } from "../kernel/index.js";
import type { ClientAuthMethod, OAuthClient } from "./client.js";
import type { OAuthServerDeps } from "./deps.js";

/** The client credentials of a token-endpoint request, as the HTTP layer found them. */
export interface ClientCredentials {
  /** `client_secret_basic` when they came in `Authorization: Basic`, else from the body. */
  readonly basic: boolean;
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
}

/**
 * Authenticates the client of `POST /oauth/token`, `/oauth/revoke` and `/oauth/introspect`: the method
 * used must be the one registered, a public client sends no secret, a confidential one its secret
 * (compared, as a hash, in constant time). Every refusal is one `invalid_credentials`, whatever failed.
 */
export async function authenticateClient(
  deps: Pick<OAuthServerDeps, "store" | "tokens">,
  credentials: ClientCredentials,
): Promise<Result<OAuthClient>> {
  const { clientId, clientSecret = "" } = credentials;
  if (!clientId) return err(failures.clientIdRequired());
  const method: ClientAuthMethod = credentials.basic
    ? "client_secret_basic"
    : clientSecret
      ? "client_secret_post"
      : "none";
  const client = isUuid(clientId) ? await deps.store.oauthClients.find(clientId) : null;
  // The hash is computed whatever is found, so an unknown client costs what a known one does.
  const presented = deps.tokens.hash(clientSecret);
  if (client === null) return err(failures.clientCredentialsInvalid());
  if (client.authMethod !== method) return err(failures.clientAuthMethodMismatch(client.authMethod));
  if (client.clientType === "public")
    return clientSecret ? err(failures.clientCredentialsInvalid()) : ok(client);
  if (!clientSecret || client.secretHash === null || !constantTimeEqual(presented, client.secretHash))
    return err(failures.clientCredentialsInvalid());
  return ok(client);
}
