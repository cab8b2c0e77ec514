import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { authenticate, authenticateAdmin } from "./authenticate.js";
import type { AccessTokenClaims } from "./claims.js";
import { issueSession, signSession } from "./steps/issue-session.js";
import { tokenKind } from "./token-kind.js";

const USER_ID = "11111111-1111-4111-8111-111111111111";

async function signedIn(deps = fakeDeps()) {
  const now = deps.clock.now();
  const user = blankUser({ id: USER_ID, aud: "authenticated", role: "authenticated", createdAt: now });
  deps.store.tables.users.set(user.id, user);
  const started = await deps.store.transaction((repos) => issueSession(deps, repos, user, "password", now));
  const signed = await signSession(deps, started);
  if (!signed.ok) throw signed.error;
  const tokens = signed.value;
  return { deps, user, tokens, token: tokens.accessToken };
}

/** A token with arbitrary claims, signed by the deps' signer (which is what `verify` accepts). */
async function tokenWith(deps: ReturnType<typeof fakeDeps>, claims: Record<string, unknown>) {
  const exp = Math.floor(deps.clock.now().getTime() / 1000) + 60;
  return deps.signer.sign({ exp, ...claims } as unknown as AccessTokenClaims);
}

describe("authenticate", () => {
  it("answers the user, the claims and the session of a valid bearer token", async () => {
    const { deps, token, tokens } = await signedIn();
    const result = await authenticate(deps, { bearerToken: token });
    expect(result).toMatchObject({
      ok: true,
      value: { user: { id: USER_ID }, sessionId: tokens.session.id },
    });
    if (result.ok) expect(result.value.claims.sub).toBe(USER_ID);
  });

  it("refuses a request without a token with 401 no_authorization", async () => {
    const { deps } = await signedIn();
    const result = await authenticate(deps, { bearerToken: undefined });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "no_authorization", message: "This endpoint requires a valid Bearer token" },
    });
  });

  it("refuses a token that does not verify, or has expired, with 403 bad_jwt", async () => {
    const { deps, token } = await signedIn();
    const forged = await authenticate(deps, { bearerToken: "not-a-jwt" });
    expect(forged).toMatchObject({ ok: false, error: { code: "bad_jwt" } });
    if (!forged.ok) {
      expect(forged.error.message).toBe(
        "invalid JWT: unable to parse or verify signature, token is unverifiable",
      );
    }
    deps.clock.advance(3601_000);
    const expired = await authenticate(deps, { bearerToken: token });
    expect(expired).toMatchObject({ ok: false, error: { code: "bad_jwt" } });
  });

  it("requires a sub claim (403) that is a UUID (400)", async () => {
    const { deps } = await signedIn();
    const missing = await authenticate(deps, { bearerToken: await tokenWith(deps, {}) });
    expect(missing).toMatchObject({
      ok: false,
      error: { code: "bad_jwt", message: "invalid claim: missing sub claim" },
    });
    const notUuid = await authenticate(deps, {
      bearerToken: await tokenWith(deps, { sub: "alice" }),
    });
    expect(notUuid).toMatchObject({
      ok: false,
      error: {
        failure: "jwtSubNotUuid",
        code: "bad_jwt",
        message: "invalid claim: sub claim must be a UUID",
      },
    });
  });

  it("refuses a token whose user no longer exists with 403 user_not_found", async () => {
    const { deps, token } = await signedIn();
    await deps.store.users.delete(USER_ID);
    const result = await authenticate(deps, { bearerToken: token });
    expect(result).toMatchObject({
      ok: false,
      error: {
        failure: "jwtUserMissing",
        code: "user_not_found",
        message: "User from sub claim in JWT does not exist",
      },
    });
  });

  it("refuses a token whose session was ended with 403 session_not_found", async () => {
    const { deps, token, tokens } = await signedIn();
    await deps.store.sessions.delete(tokens.session.id);
    const result = await authenticate(deps, { bearerToken: token });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "session_not_found",
        message: "Session from session_id claim in JWT does not exist",
      },
    });
  });

  it("accepts a token without a session (or with the nil session id) as sessionless", async () => {
    const { deps } = await signedIn();
    for (const claims of [
      { sub: USER_ID },
      { sub: USER_ID, session_id: "00000000-0000-0000-0000-000000000000" },
    ]) {
      const result = await authenticate(deps, { bearerToken: await tokenWith(deps, claims) });
      expect(result).toMatchObject({ ok: true, value: { sessionId: null } });
    }
    const bad = await authenticate(deps, {
      bearerToken: await tokenWith(deps, { sub: USER_ID, session_id: "s1" }),
    });
    expect(bad).toMatchObject({ ok: false, error: { code: "bad_jwt" } });
  });

  it("refuses a banned user with 403 user_banned until the ban ends", async () => {
    const { deps, token, user } = await signedIn();
    const until = new Date(deps.clock.now().getTime() + 60_000);
    deps.store.tables.users.set(USER_ID, { ...user, bannedUntil: until });
    const banned = await authenticate(deps, { bearerToken: token });
    expect(banned).toMatchObject({
      ok: false,
      error: { code: "user_banned", message: "User is banned" },
    });
    deps.clock.advance(60_000);
    expect((await authenticate(deps, { bearerToken: token })).ok).toBe(true);
  });
});

describe("authenticate with the request's audience", () => {
  it("refuses a token minted for another audience, with the refusal the endpoint asks for", async () => {
    const { deps, user, tokens } = await signedIn();
    const other = await tokenWith(deps, { sub: user.id, aud: "other-app", session_id: tokens.session.id });
    const expected = "authenticated";
    const refused = await authenticate(deps, { bearerToken: other, audience: { expected } });
    expect(refused).toMatchObject({ ok: false, error: { code: "unexpected_audience" } });
    const onGet = await authenticate(deps, {
      bearerToken: other,
      audience: { expected, refusal: "validation_failed" },
    });
    expect(onGet).toMatchObject({
      ok: false,
      error: { code: "validation_failed", message: "Token audience doesn't match request audience" },
    });
    const array = await tokenWith(deps, { sub: user.id, aud: ["authenticated", "x"] });
    expect(await authenticate(deps, { bearerToken: array, audience: { expected } })).toMatchObject({
      ok: true,
    });
    expect(
      await authenticate(deps, { bearerToken: tokens.accessToken, audience: { expected } }),
    ).toMatchObject({
      ok: true,
    });
    const none = await tokenWith(deps, { sub: user.id });
    expect(await authenticate(deps, { bearerToken: none, audience: { expected } })).toMatchObject({
      ok: false,
    });
  });
});

describe("authenticateAdmin", () => {
  it("accepts a token with an admin role and no sub", async () => {
    const deps = fakeDeps();
    const token = await tokenWith(deps, { role: "service_role" });
    const result = await authenticateAdmin(deps, { bearerToken: token });
    expect(result).toMatchObject({
      ok: true,
      value: { role: "service_role", claims: { role: "service_role" } },
    });
  });

  it("refuses a user's token with 403 not_admin", async () => {
    const { deps, token } = await signedIn();
    const result = await authenticateAdmin(deps, { bearerToken: token });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "not_admin", message: "User not allowed" },
    });
  });

  it("uses the configured admin roles", async () => {
    const deps = fakeDeps({
      jwt: { exp: 3600, aud: "authenticated", defaultRole: "authenticated", adminRoles: ["ops"] },
    });
    const ops = await authenticateAdmin(deps, {
      bearerToken: await tokenWith(deps, { role: "ops" }),
    });
    expect(ops.ok).toBe(true);
    const service = await authenticateAdmin(deps, {
      bearerToken: await tokenWith(deps, { role: "service_role" }),
    });
    expect(service).toMatchObject({ ok: false, error: { code: "not_admin" } });
  });

  it("refuses a missing token (401) and an unverifiable token (403)", async () => {
    const deps = fakeDeps();
    expect(await authenticateAdmin(deps, { bearerToken: undefined })).toMatchObject({
      ok: false,
      error: { code: "no_authorization" },
    });
    expect(await authenticateAdmin(deps, { bearerToken: "x" })).toMatchObject({
      ok: false,
      error: { code: "bad_jwt" },
    });
  });

  it("refuses a user's admin-role token once its session is gone, or the user is banned or deleted", async () => {
    const { deps, user, tokens } = await signedIn();
    const claims = JSON.parse(tokens.accessToken.slice(4)) as Record<string, unknown>;
    const adminToken = await tokenWith(deps, { ...claims, role: "service_role" });
    const token = adminToken;
    expect(await authenticateAdmin(deps, { bearerToken: token })).toMatchObject({ ok: true });

    deps.store.tables.users.set(user.id, {
      ...user,
      bannedUntil: new Date(deps.clock.now().getTime() + 60_000),
    });
    expect(await authenticateAdmin(deps, { bearerToken: token })).toMatchObject({
      ok: false,
      error: { code: "not_admin" },
    });
    deps.store.tables.users.set(user.id, user);
    await deps.store.sessions.deleteForUser(user.id);
    expect(await authenticateAdmin(deps, { bearerToken: token })).toMatchObject({
      ok: false,
      error: { code: "session_not_found" },
    });
    const sessionless = await tokenWith(deps, { sub: user.id, role: "service_role" });
    await deps.store.users.delete(user.id);
    expect(await authenticateAdmin(deps, { bearerToken: sessionless })).toMatchObject({
      ok: false,
      error: { code: "not_admin" },
    });
  });

  it("keeps accepting an API key, which names neither a user nor a session", async () => {
    const deps = fakeDeps();
    const key = await tokenWith(deps, { role: "service_role" });
    expect(await authenticateAdmin(deps, { bearerToken: key })).toMatchObject({
      ok: true,
      value: { role: "service_role" },
    });
  });
});

describe("token kinds (docs/http-api.md, Token kinds)", () => {
  const CLIENT_ID = "22222222-2222-4222-8222-222222222222";
  /** An ID token of the OAuth server: marked, or signed before ID tokens were (a client, no session). */
  const idTokens = (aud: string) => [
    { sub: USER_ID, aud: [aud], client_id: aud, token_use: "id", role: "service_role" },
    { sub: USER_ID, aud: [aud], client_id: aud, auth_time: 1 },
  ];

  it("tells the kinds apart by their claims", () => {
    expect(tokenKind({ sub: USER_ID, session_id: USER_ID, role: "authenticated" })).toBe("user");
    expect(tokenKind({ sub: USER_ID })).toBe("user");
    expect(tokenKind({ sub: USER_ID, session_id: USER_ID, client_id: CLIENT_ID })).toBe("client");
    expect(tokenKind({ role: "anon" })).toBe("api_key");
    expect(tokenKind({ role: "service_role", client_id: CLIENT_ID })).toBe("api_key");
    for (const claims of idTokens(CLIENT_ID)) expect(tokenKind(claims)).toBe("id_token");
    expect(tokenKind({ sub: USER_ID, session_id: USER_ID, token_use: "id" })).toBe("id_token");
  });

  it("never accepts an ID token as a bearer token, whatever the audience or kinds asked for", async () => {
    const { deps } = await signedIn();
    for (const claims of idTokens(CLIENT_ID)) {
      const bearerToken = await tokenWith(deps, claims);
      const asUser = await authenticate(deps, {
        bearerToken,
        audience: { expected: CLIENT_ID },
        accepts: ["user", "client", "api_key"],
      });
      expect(asUser).toMatchObject({ ok: false, error: { failure: "idTokenNotBearer", code: "bad_jwt" } });
      const asAdmin = await authenticateAdmin(deps, { bearerToken });
      expect(asAdmin).toMatchObject({ ok: false, error: { failure: "idTokenNotBearer" } });
    }
  });

  it("refuses a client's token as an admin credential, by its claims or by its session", async () => {
    const { deps, tokens } = await signedIn();
    const claimed = await tokenWith(deps, {
      sub: USER_ID,
      session_id: tokens.session.id,
      client_id: CLIENT_ID,
      role: "service_role",
    });
    expect(await authenticateAdmin(deps, { bearerToken: claimed })).toMatchObject({
      ok: false,
      error: { failure: "clientTokenNotAdmin", code: "not_admin" },
    });
    // A client's session whose token a hook stripped of `client_id`.
    deps.store.tables.sessions.set(tokens.session.id, { ...tokens.session, oauthClientId: CLIENT_ID });
    const stripped = await tokenWith(deps, {
      sub: USER_ID,
      session_id: tokens.session.id,
      role: "service_role",
    });
    expect(await authenticateAdmin(deps, { bearerToken: stripped })).toMatchObject({
      ok: false,
      error: { failure: "clientTokenNotAdmin" },
    });
    expect(await authenticate(deps, { bearerToken: stripped })).toMatchObject({
      ok: false,
      error: { failure: "oauthClientTokenRefused" },
    });
    expect(await authenticate(deps, { bearerToken: stripped, accepts: ["client"] })).toMatchObject({
      ok: true,
    });
  });

  it("refuses a first-party token where only a client's is accepted", async () => {
    const { deps, token } = await signedIn();
    expect(await authenticate(deps, { bearerToken: token, accepts: ["client"] })).toMatchObject({
      ok: false,
      error: { failure: "firstPartyTokenRefused", code: "bad_jwt" },
    });
  });
});
