import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { authenticate } from "./authenticate.js";
import type { SessionsStore } from "./deps.js";
import { refreshSession } from "./refresh-session.js";
import { issueSession } from "./steps/issue-session.js";

const USER_ID = "11111111-1111-4111-8111-111111111111";
const INTERVAL = 10_000;

async function signedIn(settings: Parameters<typeof fakeDeps>[0] = {}) {
  const deps = fakeDeps({ refreshTokens: { rotationEnabled: true, reuseIntervalMs: INTERVAL }, ...settings });
  const now = deps.clock.now();
  const user = blankUser({
    id: USER_ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: now,
    email: "alice@example.com",
  });
  deps.store.tables.users.set(user.id, user);
  const tokens = await deps.store.transaction((repos) => issueSession(deps, repos, user, "password", now));
  const refresh = (refreshToken: string) => refreshSession(deps, { refreshToken });
  const refreshed = async (refreshToken: string) => {
    const result = await refresh(refreshToken);
    if (!result.ok) throw result.error;
    return result.value;
  };
  const activeToken = () => deps.store.sessions.activeToken(tokens.session.id);
  return { deps, user, first: tokens.refreshToken, session: tokens.session, refresh, refreshed, activeToken };
}

const alreadyUsed = {
  ok: false,
  error: { code: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used" },
};

describe("refreshSession", () => {
  it("rotates a current token: new access token for the same session, the child as refresh token", async () => {
    const { deps, first, session, refreshed, activeToken } = await signedIn();
    deps.clock.advance(60_000);
    const answer = await refreshed(first);
    expect(answer.refreshToken).toBe(deps.tokens.child(first));
    expect(answer.session).toMatchObject({ id: session.id, amr: session.amr, aal: "aal1" });
    expect(answer.session.refreshedAt).toEqual(deps.clock.now());
    const claims = await deps.signer.verify(answer.accessToken);
    expect(claims).toMatchObject({ sub: USER_ID, session_id: session.id, amr: session.amr });
    expect(claims?.iat).toBe(Math.floor(deps.clock.now().getTime() / 1000));
    const old = await deps.store.sessions.findTokenByHash(deps.tokens.hash(first));
    expect(old).toMatchObject({ revoked: true, updatedAt: deps.clock.now() });
    expect(await activeToken()).toMatchObject({
      tokenHash: deps.tokens.hash(answer.refreshToken),
      parentId: old?.id,
    });
    expect((await deps.store.sessions.find(session.id))?.refreshedAt).toEqual(deps.clock.now());
    expect(deps.store.tables.audit.map((e) => [e.action, e.actorId, e.actorUsername])).toEqual([
      ["token_refreshed", USER_ID, "alice@example.com"],
      ["token_revoked", USER_ID, "alice@example.com"],
    ]);
  });

  it("answers the same child for the previous token within the reuse interval", async () => {
    const { deps, first, refreshed, activeToken } = await signedIn();
    const child = (await refreshed(first)).refreshToken;
    const activeBefore = await activeToken();
    deps.clock.advance(INTERVAL);
    const again = await refreshed(first);
    expect(again.refreshToken).toBe(child);
    expect(await deps.signer.verify(again.accessToken)).toMatchObject({ sub: USER_ID });
    expect(await activeToken()).toEqual(activeBefore);
    // The child is still the live token and rotates normally.
    expect((await refreshed(child)).refreshToken).toBe(deps.tokens.child(child));
  });

  it("treats the previous token after the interval as reuse: refuses, and ends the session and its chain", async () => {
    const { deps, first, session, refresh, refreshed, activeToken } = await signedIn();
    const { refreshToken: child, accessToken } = await refreshed(first);
    deps.clock.advance(INTERVAL + 1);
    expect(await refresh(first)).toMatchObject(alreadyUsed);
    expect(await activeToken()).toBeNull();
    // The session is gone with every token of its chain, so the thief's access token stops working.
    expect(await deps.store.sessions.find(session.id)).toBeNull();
    expect(await deps.store.sessions.findTokenByHash(deps.tokens.hash(child))).toBeNull();
    expect(await authenticate(deps, { bearerToken: accessToken })).toMatchObject({
      ok: false,
      error: { code: "session_not_found" },
    });
    expect(await refresh(child)).toMatchObject({ ok: false, error: { code: "refresh_token_not_found" } });
  });

  it("treats a token older than the previous one as reuse even within the interval", async () => {
    const { first, refresh, refreshed, activeToken } = await signedIn();
    const child = (await refreshed(first)).refreshToken;
    const grandchild = (await refreshed(child)).refreshToken;
    expect(await refresh(first)).toMatchObject(alreadyUsed);
    expect(await activeToken()).toBeNull();
    expect(await refresh(grandchild)).toMatchObject({
      ok: false,
      error: { code: "refresh_token_not_found" },
    });
  });

  it("with rotation disabled refuses a revoked token without revoking anything", async () => {
    const { first, refresh, refreshed, activeToken } = await signedIn({
      refreshTokens: { rotationEnabled: false, reuseIntervalMs: INTERVAL },
    });
    const child = (await refreshed(first)).refreshToken;
    const active = await activeToken();
    expect(await refresh(first)).toMatchObject(alreadyUsed);
    expect(await activeToken()).toEqual(active);
    expect((await refresh(child)).ok).toBe(true);
  });

  it("refuses an unknown token with 400 refresh_token_not_found", async () => {
    const { refresh } = await signedIn();
    expect(await refresh("nope")).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: "refresh_token_not_found",
        message: "Invalid Refresh Token: Refresh Token Not Found",
      }),
    });
  });

  it("refuses the token of a deleted session", async () => {
    const { deps, first, session, refresh } = await signedIn();
    await deps.store.sessions.delete(session.id);
    expect(await refresh(first)).toMatchObject({ ok: false, error: { code: "refresh_token_not_found" } });
  });

  it("refuses a banned user with 400 user_banned and keeps the token usable after the ban", async () => {
    const { deps, user, first, refresh } = await signedIn();
    deps.store.tables.users.set(USER_ID, {
      ...user,
      bannedUntil: new Date(deps.clock.now().getTime() + 1000),
    });
    expect(await refresh(first)).toMatchObject({
      ok: false,
      error: { failure: "userBannedAtTokenGrant", code: "user_banned", message: "User is banned" },
    });
    deps.clock.advance(1000);
    expect((await refresh(first)).ok).toBe(true);
  });

  it("serialises on the session: a refresh that waited for a concurrent one gets the same child", async () => {
    const { deps, first } = await signedIn();
    // While the first refresh waits for the session, the second one runs to completion: the first
    // must then see its token revoked and answer the child the other one issued, not a sibling.
    let raced: Awaited<ReturnType<typeof refreshSession>> | undefined;
    const racing: SessionsStore = {
      ...deps.store,
      sessions: {
        ...deps.store.sessions,
        grantRefresh: async (input) => {
          raced ??= await refreshSession(deps, { refreshToken: first });
          return deps.store.sessions.grantRefresh(input);
        },
      },
    };
    const waited = await refreshSession({ ...deps, store: racing }, { refreshToken: first });
    expect(raced).toMatchObject({ ok: true, value: { refreshToken: deps.tokens.child(first) } });
    expect(waited).toMatchObject({ ok: true, value: { refreshToken: deps.tokens.child(first) } });
    expect([...deps.store.tables.tokens.values()].filter((t) => !t.revoked)).toHaveLength(1);
  });
});
