import { type User, type UserWithIdentities, userBody } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { customizeAccessToken } from "../../hooks/index.js";
import { AuthError, err, type KernelDeps, ok, type Result } from "../../kernel/index.js";
import { type AccessTokenClaims, accessTokenClaims } from "../claims.js";
import { withClientBinding } from "../client-token-binding.js";
import type { SessionsDeps, SessionsRepositories } from "../deps.js";
import type { Session } from "../session.js";

/** What a sign-in or refresh answers: the reference's token response, before JSON. */
export interface SessionTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
  /** Unix seconds. */
  readonly expiresAt: number;
  readonly user: UserWithIdentities;
  readonly session: Session;
}

/**
 * A session a grant started or refreshed, as its transaction committed it: everything of the token
 * response but the access token, which `signSession` signs once the transaction has ended.
 */
export interface StartedSession {
  readonly session: Session;
  readonly refreshToken: string;
  readonly user: UserWithIdentities;
  /** The `amr` method, the hook's `authentication_method` (`password`, `token_refresh`, …). */
  readonly method: string;
  readonly now: Date;
}

/**
 * Signs an access token for `user` in `session`, obtained by `method` (the hook's
 * `authentication_method`). With the custom access token hook on, the hook's claims replace these
 * (`hooks` is optional so that the callers' dependency lists need not name it; the composition root
 * always provides it); the hook's failure is thrown. Call it with no transaction open (see
 * `signSession`).
 */
export async function signAccessToken(
  deps: Pick<SessionsDeps, "signer"> & Pick<KernelDeps, "settings"> & Partial<Pick<SessionsDeps, "hooks">>,
  user: User,
  session: Session,
  now: Date,
  method: string,
): Promise<{ accessToken: string; expiresIn: number; expiresAt: number }> {
  const claims = accessTokenClaims(user, session, {
    now,
    expSeconds: deps.settings.jwt.exp,
    issuer: deps.settings.jwt.issuer,
    adminRoles: deps.settings.jwt.adminRoles,
  });
  const customized = await customizeAccessToken(deps, {
    userId: user.id,
    claims: { ...claims },
    method,
  });
  if (!customized.ok) throw customized.error;
  // An OAuth client's token keeps the audience, role, client, session and scope core computed.
  const signed = withClientBinding(customized.value, claims);
  return {
    // The hook's claims hold every required claim (validated); the signer signs what it is given.
    accessToken: await deps.signer.sign(signed as unknown as AccessTokenClaims),
    expiresIn: deps.settings.jwt.exp,
    expiresAt: claims.exp,
  };
}

/**
 * The token response of a session a grant committed: signs its access token, running the custom
 * access token hook, after the grant's transaction has ended, so that no row lock and no pooled
 * connection waits on the hook (an HTTP endpoint, or a Postgres function in a transaction of its own
 * that holds none of the grant's locks). When the hook fails, the grant is undone where it matters:
 * the session ends (deleted with its refresh tokens, in one statement) before the hook's failure is
 * returned, so no refresh token of it outlives the refusal. See docs/hooks.md.
 */
export async function signSession(
  deps: Pick<SessionsDeps, "signer" | "store"> &
    Pick<KernelDeps, "settings"> &
    Partial<Pick<SessionsDeps, "hooks">>,
  started: StartedSession,
): Promise<Result<SessionTokens>> {
  const { session, user, now, method, refreshToken } = started;
  let access: Awaited<ReturnType<typeof signAccessToken>>;
  try {
    access = await signAccessToken(deps, user, session, now, method);
  } catch (thrown) {
    await deps.store.sessions.delete(session.id);
    if (thrown instanceof AuthError) return err(thrown);
    throw thrown;
  }
  return ok({ ...access, refreshToken, user, session });
}

/** A new aal1 session of `userId`, obtained by `method` at `now` (not yet stored). */
export function newSession(
  deps: Pick<SessionsDeps, "random">,
  userId: string,
  method: string,
  now: Date,
): Session {
  return {
    id: deps.random.uuid(),
    userId,
    aal: "aal1",
    amr: [{ method, timestamp: Math.floor(now.getTime() / 1000) }],
    createdAt: now,
    updatedAt: now,
    refreshedAt: null,
    notAfter: null,
  };
}

/**
 * Starts a new session for `user` (one per sign-in) with its first refresh token, inside the caller's
 * transaction; `signSession` signs its access token once that transaction has committed. `method` is
 * the `amr` method (`password`, `anonymous`, …). A soft-deleted user gets no session, whatever led
 * here (a code or link issued before the deletion): that is thrown as `user_not_found`, rolling the
 * transaction back. `notAfter`: when the session must end whatever its activity (a SAML identity
 * provider's `SessionNotOnOrAfter`); its refresh is refused after.
 */
export async function issueSession(
  deps: Pick<SessionsDeps, "random" | "tokens">,
  repos: SessionsRepositories,
  user: User,
  method: string,
  now: Date,
  notAfter: Date | null = null,
): Promise<StartedSession> {
  if (user.deletedAt !== null) throw failures.userNotFound();
  const session = { ...newSession(deps, user.id, method, now), notAfter };
  const refreshToken = deps.tokens.generate();
  await repos.sessions.create(session, deps.tokens.hash(refreshToken));
  // The token response's user carries its identities and factors, as every user body does.
  return { session, refreshToken, user: await userBody(repos, user), method, now };
}

/** An outcome as its transaction commits it: where it carries a session, one not yet signed. */
export type Unsigned<T> = T extends { readonly tokens: SessionTokens }
  ? Omit<T, "tokens"> & { readonly tokens: StartedSession }
  : T;

/** `signSession` on the session an outcome carries, if it carries one; after its transaction ended. */
export async function signOutcome<T>(
  deps: Parameters<typeof signSession>[0],
  outcome: Unsigned<T>,
): Promise<Result<T>> {
  const value = outcome as Unsigned<T> & { readonly tokens?: StartedSession };
  if (value.tokens === undefined) return ok(outcome as T);
  const signed = await signSession(deps, value.tokens);
  return signed.ok ? ok({ ...value, tokens: signed.value } as T) : signed;
}
