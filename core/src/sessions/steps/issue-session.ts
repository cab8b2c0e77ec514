import { type User, type UserWithIdentities, userBody } from "../../accounts/index.js";
import { accessTokenClaims } from "../claims.js";
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

/** Signs an access token for `user` in `session`. */
export async function signAccessToken(
  deps: Pick<SessionsDeps, "signer" | "settings">,
  user: User,
  session: Session,
  now: Date,
): Promise<{ accessToken: string; expiresIn: number; expiresAt: number }> {
  const claims = accessTokenClaims(user, session, {
    now,
    expSeconds: deps.settings.jwt.exp,
    issuer: deps.settings.jwt.issuer,
  });
  return {
    accessToken: await deps.signer.sign(claims),
    expiresIn: deps.settings.jwt.exp,
    expiresAt: claims.exp,
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
  const session: Session = {
    id: deps.random.uuid(),
    userId: user.id,
    aal: "aal1",
    amr: [{ method, timestamp: Math.floor(now.getTime() / 1000) }],
    createdAt: now,
    updatedAt: now,
    refreshedAt: null,
    notAfter: null,
  };
  await repos.sessions.create(session);
  const refreshToken = deps.tokens.generate();
  await repos.sessions.insertToken({
    sessionId: session.id,
    userId: user.id,
    tokenHash: deps.tokens.hash(refreshToken),
    parentId: null,
    revoked: false,
    createdAt: now,
    updatedAt: now,
  });
  const access = await signAccessToken(deps, user, session, now);
  // The token response's user carries its identities and factors, as every user body does.
  return { ...access, refreshToken, user: await userBody(repos, user), session };
}
