import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { authenticateAdmin } from "./authenticate.js";
import { refreshSession } from "./refresh-session.js";
import type { SessionLimits } from "./settings.js";
import { issueSession } from "./steps/issue-session.js";

const USER_ID = "11111111-1111-4111-8111-111111111111";
const off: SessionLimits = { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false };

async function setUp(limits: Partial<SessionLimits>) {
  const deps = fakeDeps({ sessions: { ...off, ...limits } });
  const user = blankUser({
    id: USER_ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: deps.clock.now(),
    email: "alice@example.com",
  });
  deps.store.tables.users.set(user.id, user);
  const signIn = () =>
    deps.store.transaction((repos) => issueSession(deps, repos, user, "password", deps.clock.now()));
  const refresh = (refreshToken: string) => refreshSession(deps, { refreshToken });
  return { deps, signIn, refresh };
}

const refused = (message: string) => ({ ok: false, error: { code: "session_expired", message } });

describe("refreshSession with session controls", () => {
  it("refuses a refresh after the timebox, however active the session, and writes nothing", async () => {
    const { deps, signIn, refresh } = await setUp({ timeboxMs: 60_000 });
    let token = (await signIn()).refreshToken;
    for (let i = 0; i < 2; i++) {
      deps.clock.advance(30_000);
      const answer = await refresh(token);
      if (!answer.ok) throw answer.error;
      token = answer.value.refreshToken;
    }
    const before = structuredClone([...deps.store.tables.tokens.values()]);
    deps.clock.advance(1);
    expect(await refresh(token)).toMatchObject(refused("Invalid Refresh Token: Session Expired"));
    expect([...deps.store.tables.tokens.values()]).toEqual(before);
  });

  it("refuses a refresh after inactivity, counted from the last refresh", async () => {
    const { deps, signIn, refresh } = await setUp({ inactivityTimeoutMs: 30_000 });
    const first = (await signIn()).refreshToken;
    deps.clock.advance(30_000);
    const second = await refresh(first);
    if (!second.ok) throw second.error;
    deps.clock.advance(30_001);
    expect(await refresh(second.value.refreshToken)).toMatchObject(
      refused("Invalid Refresh Token: Session Expired (Inactivity)"),
    );
  });

  it("refuses an ended session before reuse detection: a revoked token then revokes nothing", async () => {
    const { deps, signIn, refresh } = await setUp({ inactivityTimeoutMs: 30_000 });
    const tokens = await signIn();
    const child = await refresh(tokens.refreshToken);
    if (!child.ok) throw child.error;
    deps.clock.advance(60_000);
    expect(await refresh(tokens.refreshToken)).toMatchObject(
      refused("Invalid Refresh Token: Session Expired (Inactivity)"),
    );
    expect(await deps.store.sessions.find(tokens.session.id)).not.toBeNull();
    expect(await deps.store.sessions.activeToken(tokens.session.id)).not.toBeNull();
  });

  it("obeys a stored not_after", async () => {
    const { deps, signIn, refresh } = await setUp({});
    const tokens = await signIn();
    const stored = deps.store.tables.sessions.get(tokens.session.id);
    if (!stored) throw new Error("no session");
    deps.store.tables.sessions.set(stored.id, {
      ...stored,
      notAfter: new Date(deps.clock.now().getTime() + 1000),
    });
    deps.clock.advance(1001);
    expect(await refresh(tokens.refreshToken)).toMatchObject(
      refused("Invalid Refresh Token: Session Expired"),
    );
  });

  it("with a single session per user, refuses the older session once a newer one signed in", async () => {
    const { deps, signIn, refresh } = await setUp({ singlePerUser: true });
    const older = await signIn();
    deps.clock.advance(1000);
    const newer = await signIn();
    deps.clock.advance(1000);
    expect(await refresh(older.refreshToken)).toMatchObject(
      refused("Invalid Refresh Token: Session Expired (Revoked by Newer Login)"),
    );
    const latest = await refresh(newer.refreshToken);
    expect(latest.ok).toBe(true);
  });

  it("without the switch, both sessions refresh", async () => {
    const { deps, signIn, refresh } = await setUp({});
    const older = await signIn();
    deps.clock.advance(1000);
    await signIn();
    expect((await refresh(older.refreshToken)).ok).toBe(true);
  });

  it("with a single session per user, a newer session that has ended does not supersede", async () => {
    const { deps, signIn, refresh } = await setUp({ singlePerUser: true });
    const older = await signIn();
    deps.clock.advance(1000);
    const newer = await signIn();
    const stored = deps.store.tables.sessions.get(newer.session.id);
    if (!stored) throw new Error("no session");
    deps.store.tables.sessions.set(stored.id, { ...stored, notAfter: deps.clock.now() });
    deps.clock.advance(1);
    expect((await refresh(older.refreshToken)).ok).toBe(true);
  });
});

describe("authenticateAdmin with session controls", () => {
  it("refuses an admin user's token once its session is over (403 session_expired)", async () => {
    const { deps, signIn } = await setUp({ timeboxMs: 60_000 });
    const { session } = await signIn();
    const token = await deps.signer.sign({
      sub: USER_ID,
      role: "service_role",
      session_id: session.id,
      exp: Math.floor(deps.clock.now().getTime() / 1000) + 3600,
    } as never);
    expect((await authenticateAdmin(deps, { bearerToken: token })).ok).toBe(true);
    deps.clock.advance(60_001);
    expect(await authenticateAdmin(deps, { bearerToken: token })).toMatchObject({
      ok: false,
      error: { code: "session_expired", message: "Session is no longer valid" },
    });
  });
});
