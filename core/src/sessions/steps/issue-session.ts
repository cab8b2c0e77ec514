import { type User, type UserWithIdentities, userBody } from "../../accounts/index.js";
import { customizeAccessToken, type HookFunctions, type HooksDeps } from "../../hooks/index.js";
import { type AccessTokenClaims, accessTokenClaims } from "../claims.js";
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
 * Signs an access token for `user` in `session`, obtained by `method` (the hook's
 * `authentication_method`). With the custom access token hook on, the hook's claims replace these
 * (`hooks` is optional so that the callers' dependency lists need not name it; the composition root
 * always provides it). The hook runs inside the token-issuing transaction (`functions`), as in the
 * reference: its failure is thrown, so that transaction rolls back and the grant is undone (the
 * session is not created, the refresh token not rotated, the one-time token not spent).
 */
export async function signAccessToken(
  deps: Pick<SessionsDeps, "signer" | "settings"> & Partial<HooksDeps>,
  user: User,
  session: Session,
  now: Date,
  grant: { readonly method: string; readonly functions?: HookFunctions },
): Promise<{ accessToken: string; expiresIn: number; expiresAt: number }> {
  const claims = accessTokenClaims(user, session, {
    now,
    expSeconds: deps.settings.jwt.exp,
    issuer: deps.settings.jwt.issuer,
  });
  const customized = await customizeAccessToken(
    deps,
    { userId: user.id, claims: { ...claims }, method: grant.method },
    grant.functions,
  );
  if (!customized.ok) throw customized.error;
  return {
    // The hook's claims hold every required claim (validated); the signer signs what it is given.
    accessToken: await deps.signer.sign(customized.value as unknown as AccessTokenClaims),
    expiresIn: deps.settings.jwt.exp,
    expiresAt: claims.exp,
  };
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
 * transaction, and signs the access token. `method` is the `amr` method (`password`, `anonymous`, …).
 */
export async function issueSession(
  deps: Pick<SessionsDeps, "signer" | "settings" | "random" | "tokens">,
  repos: SessionsRepositories,
  user: User,
  method: string,
  now: Date,
): Promise<SessionTokens> {
  const session = newSession(deps, user.id, method, now);
  const refreshToken = deps.tokens.generate();
  await repos.sessions.create(session, deps.tokens.hash(refreshToken));
  const access = await signAccessToken(deps, user, session, now, { method, functions: repos.hookFunctions });
  // The token response's user carries its identities and factors, as every user body does.
  return { ...access, refreshToken, user: await userBody(repos, user), session };
}
