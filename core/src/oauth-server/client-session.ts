import { isBanned, userBody } from "../accounts/index.js";
import type { DpopBinding } from "../dpop/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { Session, StartedSession } from "../sessions/index.js";
import type { OAuthAuthorization } from "./authorization.js";
import { clientIdOf, type OAuthClient } from "./client.js";
import type { OAuthServerDeps, OAuthServerRepositories } from "./deps.js";

/** How an approved authorization became tokens: the session's `amr` method and the audit's provider type. */
export interface ClientSessionOrigin {
  readonly method: string;
  readonly providerType: string;
}

/**
 * Starts the session a client gets from an approved authorization (a browser's code, a device's
 * poll), in the transaction that spent it, under the id the authorization was spent on: the user as
 * now (gone or banned since the approval: refused), the session bound to the client (and to its
 * document's URL), the scopes and resource approved, the level and methods of the session it was
 * approved from, the DPoP key the token request proved (its
 * refresh and access tokens need that key from now on), a first refresh token and the sign-in audited.
 */
export async function startClientSession(
  repos: OAuthServerRepositories,
  deps: Pick<OAuthServerDeps, "tokens">,
  input: {
    readonly client: OAuthClient;
    readonly authorization: Pick<OAuthAuthorization, "scope" | "resource" | "authentication">;
    readonly userId: string;
    readonly sessionId: string;
    readonly origin: ClientSessionOrigin;
    readonly dpop: DpopBinding | null;
    readonly now: Date;
  },
): Promise<Result<StartedSession>> {
  const { client, authorization, now, origin } = input;
  const user = await repos.users.findById(input.userId);
  if (user === null || user.deletedAt !== null) return err(failures.codeUserGone());
  if (isBanned(user, now)) return err(failures.codeUserBanned());
  // The level the user reached where they approved (a second factor, say) carries over, with its
  // methods after the grant's own (most recent first, as GoTrue orders them).
  const proved = authorization.authentication ?? null;
  const session: Session = {
    id: input.sessionId,
    userId: user.id,
    aal: proved?.aal ?? "aal1",
    amr: [{ method: origin.method, timestamp: Math.floor(now.getTime() / 1000) }, ...(proved?.amr ?? [])],
    createdAt: now,
    updatedAt: now,
    refreshedAt: null,
    notAfter: null,
    oauthClientId: client.id,
    ...(client.metadataUrl ? { oauthClientUrl: client.metadataUrl } : {}),
    scopes: authorization.scope,
    ...(authorization.resource ? { resource: authorization.resource } : {}),
    ...(input.dpop ? { dpopJkt: input.dpop.jkt } : {}),
  };
  const refreshToken = deps.tokens.generate();
  await repos.sessions.create(session, deps.tokens.hash(refreshToken));
  await repos.audit.record({
    action: "login",
    actorId: user.id,
    actorUsername: user.phone || user.email || "",
    traits: { provider_type: origin.providerType, client_id: clientIdOf(client) },
    at: now,
  });
  const body = await userBody(repos, user);
  return ok({ session, refreshToken, user: body, method: origin.method, now });
}
