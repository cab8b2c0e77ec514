import { isBanned, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { type AuthError, err, isUuid, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import {
  type AccessTokenClaims,
  type ActorClaim,
  accessTokenClaims,
  defineGrant,
  type Session,
  sessionEnd,
  tokenKind,
} from "../sessions/index.js";
import { clientIdOf, type OAuthClient, TOKEN_EXCHANGE_GRANT } from "./client.js";
import type { OAuthServerDeps, OAuthServerRepositories } from "./deps.js";
import type { OAuthTokens, TokenRequestBinding } from "./token-grants.js";

/** The only token type exchanged and issued: an access token of this server (RFC 8693 §3). */
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "signer" | "settings">;
type Claims = Readonly<Record<string, unknown>>;

/** A token exchange request (RFC 8693 §2.1), as the form sent it, with the authenticated client. */
export interface TokenExchange extends TokenRequestBinding {
  readonly client: OAuthClient;
  readonly subjectToken?: string | undefined;
  readonly subjectTokenType?: string | undefined;
  readonly actorToken?: string | undefined;
  readonly actorTokenType?: string | undefined;
  readonly resource?: string | undefined;
  readonly audience?: string | undefined;
  readonly scope?: string | undefined;
  readonly requestedTokenType?: string | undefined;
  /** authsvc's extension: `true` asks for impersonation (no `act`), for clients an admin allowed it. */
  readonly impersonate?: string | undefined;
}

/** What the request asks for, its syntax checked. */
interface Asked {
  readonly targets: readonly string[];
  readonly impersonation: boolean;
}

const ABSOLUTE_URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s#]+$/;

/** The checks that need no token: parameters present, token types this server speaks. */
function readRequest(input: TokenExchange): Result<Asked> {
  if (input.client.clientType !== "confidential") return err(failures.exchangeNeedsConfidentialClient());
  if (!input.subjectToken) return err(failures.exchangeSubjectTokenMissing());
  if (!input.subjectTokenType) return err(failures.exchangeSubjectTokenTypeMissing());
  // An ID token says who signed in to a client, never what a bearer may do; a refresh token stays
  // with its client. Only an access token of this server is a subject.
  if (input.subjectTokenType !== ACCESS_TOKEN_TYPE)
    return err(failures.exchangeSubjectTokenTypeUnsupported());
  if (input.actorToken && !input.actorTokenType) return err(failures.exchangeActorTokenTypeMissing());
  if (!input.actorToken && input.actorTokenType) return err(failures.exchangeActorTokenMissing());
  if (input.actorTokenType && input.actorTokenType !== ACCESS_TOKEN_TYPE)
    return err(failures.exchangeActorTokenTypeUnsupported());
  if (input.requestedTokenType && input.requestedTokenType !== ACCESS_TOKEN_TYPE)
    return err(failures.exchangeRequestedTokenTypeUnsupported());
  if (input.impersonate && input.impersonate !== "true" && input.impersonate !== "false")
    return err(failures.exchangeImpersonateInvalid());
  const impersonation = input.impersonate === "true";
  if (impersonation && input.actorToken) return err(failures.exchangeImpersonationWithActor());
  if (input.resource && !ABSOLUTE_URI.test(input.resource)) return err(failures.exchangeResourceInvalid());
  const targets = [...new Set([input.resource, input.audience].filter((t): t is string => !!t))];
  if (targets.length === 0) return err(failures.exchangeTargetMissing());
  return ok({ targets, impersonation });
}

/** A live token's session: it exists, is of an OAuth client, is the token's user's, and has not ended. */
async function liveSession(
  deps: Deps,
  repos: OAuthServerRepositories,
  claims: Claims,
): Promise<Session | null> {
  const id = claims.session_id;
  if (typeof id !== "string" || !isUuid(id)) return null;
  const session = await repos.sessions.find(id);
  if (session === null || session.oauthClientId === undefined || session.userId !== claims.sub) return null;
  return sessionEnd(session, deps.settings.sessions, deps.clock.now()) === null ? session : null;
}

const scopesOf = (value: unknown): string[] =>
  typeof value === "string" ? value.split(" ").filter(Boolean) : [];

/**
 * The scopes of the new token: those asked, every one within the subject token's, which are never
 * more than its session was granted (a chain of exchanges only narrows); none asked: the subject's.
 */
function narrowedScope(subject: Claims, session: Session, asked: string | undefined): Result<string> {
  const granted = new Set(scopesOf(session.scopes));
  const held = scopesOf(subject.scope).filter((s) => granted.has(s));
  if (asked === undefined || asked.trim() === "") return ok(held.join(" "));
  const wanted = [...new Set(scopesOf(asked))];
  if (wanted.some((s) => !held.includes(s))) return err(failures.exchangeScopeWidened());
  return ok(wanted.join(" "));
}

/** The `act` a subject token carries, when it is one an exchange issued. */
function priorActor(claims: Claims): ActorClaim | undefined {
  const act = claims.act;
  return typeof act === "object" && act !== null && typeof (act as ActorClaim).sub === "string"
    ? (act as ActorClaim)
    : undefined;
}

interface Exchanged {
  readonly claims: AccessTokenClaims;
  readonly expiresIn: number;
}

/** Who a refused exchange was for and by, in the audit log. */
interface Refusal {
  readonly user?: User | null;
  readonly sub?: unknown;
  readonly reason: string;
  readonly subjectClientId?: unknown;
  readonly targets?: readonly string[];
}

async function refused(
  repos: OAuthServerRepositories,
  client: OAuthClient,
  refusal: Refusal,
  error: AuthError,
  now: Date,
): Promise<Result<never>> {
  const { user } = refusal;
  await repos.audit.record({
    action: "token_exchange_refused",
    actorId: user?.id ?? (typeof refusal.sub === "string" ? refusal.sub : client.id),
    actorUsername: user?.phone || user?.email || "",
    traits: {
      client_id: client.id,
      reason: refusal.reason,
      ...(typeof refusal.subjectClientId === "string" ? { subject_client_id: refusal.subjectClientId } : {}),
      ...(refusal.targets ? { audience: refusal.targets } : {}),
    },
    at: now,
  });
  return err(error);
}

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693) at `POST /oauth/token`: a
 * confidential client an admin gave the grant type exchanges a user's access token for one to an
 * audience the admin allowed it, with the same or fewer scopes, which says who acts (`act`, §4.1).
 *
 * Which subject tokens a client may exchange: only an access token issued to it (`client_id` is the
 * requesting client) whose session is live — never a first-party token (the user's whole account),
 * an ID token, an API key, or another client's token. A token that leaked to another agent therefore
 * buys nothing there, and a token's holder obtains only tokens for the audiences an admin listed for
 * its client (`token_exchange_audiences`). The new token names the subject's session, so it ends
 * when that session ends (sign-out, revoked consent, deleted client), and never outlives the subject
 * token. Impersonation (no `act`) is for clients the admin allowed it only. Every exchange, and every
 * refusal past the request's syntax, is audited in the transaction that decided it. A request with a
 * DPoP proof gets a token bound to its key (`cnf.jkt`); one without, a bearer token.
 */
export async function exchangeToken(deps: Deps, input: TokenExchange): Promise<Result<OAuthTokens>> {
  const asked = readRequest(input);
  if (!asked.ok) return asked;
  const { targets, impersonation } = asked.value;
  const { client } = input;
  const now = deps.clock.now();
  const subject = await deps.signer.verify(input.subjectToken ?? "");
  if (subject === null) return err(failures.exchangeSubjectTokenInvalid());
  const actor = input.actorToken ? await deps.signer.verify(input.actorToken) : undefined;
  if (actor === null) return err(failures.exchangeActorTokenInvalid());
  const decided = await transactionRollingBackOn(deps.store, async (repos): Promise<Result<Exchanged>> => {
    const refuse = (error: AuthError, refusal: Refusal) => refused(repos, client, refusal, error, now);
    const base = { sub: subject.sub, subjectClientId: subject.client_id };
    const kind = tokenKind(subject);
    if (kind === "id_token")
      return refuse(failures.exchangeSubjectIdToken(), { ...base, reason: "id_token_as_subject" });
    // A first-party token is the user's whole account: never a subject, and its presence worth a note.
    if (kind === "user")
      return refuse(failures.exchangeSubjectNotClientToken(), { ...base, reason: "first_party_subject" });
    if (kind !== "client") return err(failures.exchangeSubjectNotClientToken());
    // A token that reached another client leaked: refused, and the attempt kept for the operator.
    if (subject.client_id !== client.id)
      return refuse(failures.exchangeSubjectOfAnotherClient(), {
        ...base,
        reason: "subject_of_another_client",
      });
    const session = await liveSession(deps, repos, subject);
    if (session === null) return err(failures.exchangeSubjectSessionEnded());
    // Whatever the claims say, the session must be the client's own too.
    if (session.oauthClientId !== client.id)
      return refuse(failures.exchangeSubjectOfAnotherClient(), {
        ...base,
        subjectClientId: session.oauthClientId,
        reason: "subject_of_another_client",
      });
    const user = await repos.users.findById(session.userId);
    if (user === null || user.deletedAt !== null) return err(failures.exchangeSubjectUserGone());
    if (isBanned(user, now)) return err(failures.codeUserBanned());
    const who = { ...base, user, targets };
    const allowed = client.tokenExchangeAudiences ?? [];
    const refusedTarget = targets.find((t) => !allowed.includes(t));
    if (refusedTarget !== undefined)
      return refuse(failures.exchangeTargetRefused(refusedTarget), {
        ...who,
        reason: "audience_not_allowed",
      });
    const prior = priorActor(subject);
    if (impersonation && client.tokenExchangeImpersonation !== true)
      return refuse(failures.exchangeImpersonationRefused(), { ...who, reason: "impersonation_not_allowed" });
    // Impersonating with a delegated token would erase who acted before: the chain stays visible.
    if (impersonation && prior !== undefined)
      return refuse(failures.exchangeImpersonationOfDelegation(), {
        ...who,
        reason: "impersonation_of_delegation",
      });
    const scope = narrowedScope(subject, session, input.scope);
    if (!scope.ok) return refuse(scope.error, { ...who, reason: "scope_widened" });
    let act: ActorClaim | undefined;
    if (!impersonation) {
      let acting: ActorClaim = { sub: client.id };
      if (actor !== undefined) {
        const actorSession = tokenKind(actor) === "client" ? await liveSession(deps, repos, actor) : null;
        // The token names its client by its public client_id, a client metadata document's URL for
        // such a client, and the session by the client's row: the two must be the one live client.
        const actorClient = actorSession?.oauthClientId
          ? await repos.oauthClients.find(actorSession.oauthClientId)
          : null;
        if (actorClient === null || clientIdOf(actorClient) !== actor.client_id)
          return err(failures.exchangeActorNotClientToken());
        acting = { sub: String(actor.sub), client_id: String(actor.client_id) };
      }
      act = prior === undefined ? acting : { ...acting, act: prior };
    }
    const subjectExp = typeof subject.exp === "number" ? subject.exp : 0;
    // Bound to the key this request proved (RFC 9449 §5), or to none: never to the subject session's
    // key, which this request did not prove.
    const fresh = accessTokenClaims(
      user,
      { ...session, dpopJkt: input.dpop?.jkt },
      {
        now,
        expSeconds: deps.settings.jwt.exp,
        issuer: deps.settings.jwt.issuer,
        adminRoles: deps.settings.jwt.adminRoles,
      },
    );
    // Never longer than the subject token: an exchange must not extend what the user's token allowed.
    const exp = Math.min(fresh.exp, subjectExp);
    const claims: AccessTokenClaims = {
      ...fresh,
      aud: targets.length === 1 ? (targets[0] as string) : [...targets],
      exp,
      client_id: client.id,
      scope: scope.value,
      ...(act ? { act } : {}),
    };
    await repos.audit.record({
      action: "token_exchanged",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: {
        client_id: client.id,
        subject_client_id: session.oauthClientId,
        audience: targets,
        scope: scope.value,
        mode: impersonation ? "impersonation" : "delegation",
        ...(act ? { act } : {}),
      },
      at: now,
    });
    return ok({ claims, expiresIn: Math.max(0, exp - fresh.iat) });
  });
  if (!decided.ok) return decided;
  return ok({
    accessToken: await deps.signer.sign(decided.value.claims),
    expiresIn: decided.value.expiresIn,
    scope: decided.value.claims.scope ?? "",
    issuedTokenType: ACCESS_TOKEN_TYPE,
    ...(input.dpop ? { boundTo: input.dpop.jkt } : {}),
  });
}

export const tokenExchangeGrant = defineGrant(TOKEN_EXCHANGE_GRANT, exchangeToken);
