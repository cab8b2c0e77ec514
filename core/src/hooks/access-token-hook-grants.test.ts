import { describe, expect, it } from "vitest";
import { failures } from "../failures.js";
import { err, ok } from "../kernel/index.js";
import { challengeFactor, enrollFactor, verifyFactor } from "../mfa/index.js";
import { exchangeAuthCode } from "../pkce/index.js";
import { refreshSession } from "../sessions/index.js";
import { signUp } from "../signup/index.js";
import { aFlowState, fakeDeps, fakeHooks, type fakeTotp } from "../testing/index.js";
import { linkTokenOf } from "../testing/messaging/message-helpers.js";
import { verifyOtp } from "../verification/index.js";

/**
 * The custom access token hook runs after each grant committed; whichever grant it refuses, the
 * session that grant started or refreshed ends with it, so no refresh token of it stays usable.
 */
function withHook(autoconfirm = false) {
  let refusing = false;
  const hooks = fakeHooks({
    custom_access_token: (input) =>
      refusing
        ? err(failures.hookError(403, "No token"))
        : ok({ claims: (input as { claims: Record<string, unknown> }).claims }),
  });
  const base = fakeDeps({ signup: { ...fakeDeps().settings.signup, mailerAutoconfirm: autoconfirm } });
  const deps = { ...base, hooks: hooks.dispatcher };
  const refuse = () => {
    refusing = true;
  };
  return { deps, hooks, refuse };
}

const refused = { ok: false, error: { message: "No token", httpStatus: 403 } };

describe("a refusing custom access token hook", () => {
  it("ends the session a confirmation link would have started; the hook never ran in a transaction", async () => {
    const { deps, hooks, refuse } = withHook();
    const signedUp = await signUp(deps, { email: "alice@example.com", password: "secret1" });
    expect(signedUp).toMatchObject({ ok: true, value: { kind: "user" } });
    refuse();
    expect(
      await verifyOtp(deps, { type: "signup", tokenHash: linkTokenOf(deps.mailer.sent[0]) }),
    ).toMatchObject(refused);
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.tokens.size).toBe(0);
    expect(hooks.calls).toHaveLength(1);
  });

  it("ends the session whose refresh it refuses: its refresh tokens are gone", async () => {
    const { deps, refuse } = withHook(true);
    const signedUp = await signUp(deps, { email: "alice@example.com", password: "secret1" });
    if (!signedUp.ok || signedUp.value.kind !== "session") throw new Error("expected a session");
    const { refreshToken } = signedUp.value.tokens;
    refuse();
    expect(await refreshSession(deps, { refreshToken })).toMatchObject(refused);
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.tokens.size).toBe(0);
    expect(await refreshSession(deps, { refreshToken })).toMatchObject({
      ok: false,
      error: { code: "refresh_token_not_found" },
    });
  });

  it("ends the session a PKCE code would have started, the code spent", async () => {
    const { deps, refuse } = withHook(true);
    const signedUp = await signUp(deps, { email: "alice@example.com", password: "secret1" });
    if (!signedUp.ok || signedUp.value.kind !== "session") throw new Error("expected a session");
    const userId = signedUp.value.tokens.user.id;
    await deps.store.sessions.deleteForUser(userId);
    const verifier = "v".repeat(43);
    const state = aFlowState({
      userId,
      codeChallenge: verifier,
      codeChallengeMethod: "plain",
      authCodeHash: deps.tokens.hash("code-1"),
      authCodeIssuedAt: deps.clock.now(),
      createdAt: deps.clock.now(),
    });
    deps.store.tables.flowStates.set(state.id, state);
    refuse();
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: verifier })).toMatchObject(
      refused,
    );
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.tokens.size).toBe(0);
  });

  it("ends the session an MFA verification would have raised to aal2", async () => {
    const { deps, refuse } = withHook(true);
    const signedUp = await signUp(deps, { email: "alice@example.com", password: "secret1" });
    if (!signedUp.ok || signedUp.value.kind !== "session") throw new Error("expected a session");
    const { user, session } = signedUp.value.tokens;
    const enrolled = await enrollFactor(deps, { user, sessionId: session.id, factorType: "totp" });
    if (!enrolled.ok) throw enrolled.error;
    const factorId = enrolled.value.factor.id;
    const ipAddress = "203.0.113.7";
    const challenge = await challengeFactor(deps, { user, factorId, ipAddress });
    if (!challenge.ok) throw challenge.error;
    const totp = deps.totp as ReturnType<typeof fakeTotp>;
    const code = totp.codeAt(enrolled.value.totp?.secret ?? "", deps.clock.now());
    refuse();
    const verified = await verifyFactor(deps, {
      user,
      sessionId: session.id,
      factorId,
      challengeId: challenge.value.id,
      code,
      ipAddress,
    });
    expect(verified).toMatchObject(refused);
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(deps.store.tables.tokens.size).toBe(0);
  });
});
