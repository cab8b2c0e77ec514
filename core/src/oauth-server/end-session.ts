import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import { tokenKind } from "../sessions/index.js";
import type { OAuthClient } from "./client.js";
import type { OAuthServerDeps } from "./deps.js";
import { logoutMetadataOf } from "./logout-metadata.js";
import { issuerOf, withQuery } from "./query.js";

type Deps = Pick<OAuthServerDeps, "store" | "idTokens" | "clock" | "settings">;

/** An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2), as sent. */
export interface EndSessionRequest {
  readonly idTokenHint?: string | undefined;
  readonly clientId?: string | undefined;
  readonly postLogoutRedirectUri?: string | undefined;
  readonly state?: string | undefined;
  /** The user confirmed on authsvc's page (a form carrying its CSRF proof). */
  readonly confirmed: boolean;
}

/**
 * What `/oauth/logout` does next: ask the user (no valid hint: nothing is ended, nowhere is the
 * browser sent, on a GET alone), or — done — send the browser to the registered URI (`redirectTo`,
 * with the `state`) or show that the user is signed out.
 */
export type EndSessionOutcome =
  | { readonly kind: "confirm"; readonly client: OAuthClient | null }
  | {
      readonly kind: "done";
      readonly client: OAuthClient | null;
      readonly redirectTo: string | null;
      /** How many sessions this request ended. */
      readonly ended: number;
    };

const invalid = (problem: string) => err(failures.logoutRequestInvalid(problem));
const audienceOf = (aud: unknown): string[] =>
  typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === "string") : [];

/** The claims of a valid `id_token_hint`: an ID token of this issuer, signed by its key, expired or not. */
async function hintClaims(
  deps: Deps,
  hint: string,
): Promise<Result<{ sub: string; aud: string[]; sid: string | null }>> {
  if (hint.length > 16_384) return invalid("id_token_hint is not a valid ID token of this server");
  const claims = await deps.idTokens.verifyOwn(hint);
  // Only an ID token: an access token (also signed by this server) is no proof of who signed out.
  if (claims === null || tokenKind(claims) !== "id_token" || claims.iss !== issuerOf(deps.settings))
    return invalid("id_token_hint is not a valid ID token of this server");
  const sub = claims.sub;
  const aud = audienceOf(claims.aud);
  if (typeof sub !== "string" || aud.length === 0)
    return invalid("id_token_hint is not a valid ID token of this server");
  const sid = typeof claims.sid === "string" && isUuid(claims.sid) ? claims.sid : null;
  return ok({ sub, aud, sid });
}

/**
 * `/oauth/logout` (RP-Initiated Logout §2, §3). A valid `id_token_hint` (signature and issuer; an
 * expired one is accepted) ends the session it names (`sid`) if that session is still the user's
 * with that client, its refresh tokens with it (the back-channel logouts of the session are recorded
 * by the store in the same transaction); a hint without `sid` ends the user's sessions with that
 * client. Without a hint nothing is ended: authsvc keeps no sign-in of its own in the browser, so the
 * user is asked to confirm before being sent anywhere. `post_logout_redirect_uri` must be one the
 * client registered, compared as exact strings — never is the browser sent to another — and needs
 * the client, named by `client_id` or the hint's audience (the two must agree).
 */
export async function endSession(deps: Deps, input: EndSessionRequest): Promise<Result<EndSessionOutcome>> {
  let hint: { sub: string; aud: string[]; sid: string | null } | null = null;
  if (input.idTokenHint) {
    const checked = await hintClaims(deps, input.idTokenHint);
    if (!checked.ok) return checked;
    hint = checked.value;
  }
  if (input.clientId !== undefined && hint !== null && !hint.aud.includes(input.clientId))
    return invalid("client_id is not the audience of id_token_hint");
  const clientId = input.clientId ?? hint?.aud[0];
  let client: OAuthClient | null = null;
  if (clientId !== undefined) {
    client = isUuid(clientId) ? await deps.store.oauthClients.find(clientId) : null;
    if (client === null && (input.clientId !== undefined || input.postLogoutRedirectUri !== undefined))
      return invalid("unknown client_id");
  }
  let redirectTo: string | null = null;
  if (input.postLogoutRedirectUri !== undefined) {
    if (client === null) return invalid("post_logout_redirect_uri needs client_id or id_token_hint");
    if (!logoutMetadataOf(client).postLogoutRedirectUris.includes(input.postLogoutRedirectUri))
      return invalid("post_logout_redirect_uri is not registered for this client");
    redirectTo = withQuery(input.postLogoutRedirectUri, input.state ? { state: input.state } : {});
  }
  if (hint === null && !input.confirmed) return ok({ kind: "confirm", client });
  const ended = hint === null ? 0 : await endHintedSessions(deps, hint, client);
  return ok({ kind: "done", client, redirectTo, ended });
}

/** Ends the session the hint names (or, without `sid`, the user's sessions with its client). */
async function endHintedSessions(
  deps: Deps,
  hint: { sub: string; sid: string | null },
  client: OAuthClient | null,
): Promise<number> {
  const now = deps.clock.now();
  return deps.store.transaction(async (repos) => {
    const sessions =
      hint.sid !== null
        ? [await repos.sessions.lock(hint.sid)].filter((s) => s !== null)
        : isUuid(hint.sub)
          ? await repos.sessions.listForUser(hint.sub)
          : [];
    // The hint's session only while it is still the user's and its client's.
    const ending = sessions.filter(
      (s) => s.userId === hint.sub && s.oauthClientId != null && s.oauthClientId === client?.id,
    );
    for (const session of ending) await repos.sessions.delete(session.id);
    if (ending.length > 0) {
      const user = await repos.users.findById(hint.sub);
      await repos.audit.record({
        action: "logout",
        actorId: hint.sub,
        actorUsername: user?.phone || user?.email || "",
        traits: { client_id: client?.id ?? "", action: "rp_initiated_logout" },
        at: now,
      });
    }
    return ending.length;
  });
}
