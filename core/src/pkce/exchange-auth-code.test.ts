import { describe, expect, it } from "vitest";
import { aFlowState, aUser, fakeDeps } from "../testing/index.js";
import { exchangeAuthCode } from "./exchange-auth-code.js";
import type { FlowState } from "./flow-state.js";

const VERIFIER = "v".repeat(43);

/** A user with a PKCE flow (plain challenge) whose code `code` was issued now. */
function withIssuedCode(fields: Partial<FlowState> = {}) {
  const deps = fakeDeps();
  const user = aUser({ emailConfirmedAt: deps.clock.now() });
  deps.store.tables.users.set(user.id, user);
  const state = aFlowState({
    userId: user.id,
    codeChallenge: VERIFIER,
    codeChallengeMethod: "plain",
    authCodeHash: deps.tokens.hash("code-1"),
    authCodeIssuedAt: deps.clock.now(),
    authenticationMethod: "recovery",
    createdAt: deps.clock.now(),
    ...fields,
  });
  deps.store.tables.flowStates.set(state.id, state);
  return { deps, user, state };
}

const failure = (code: string, message?: string) => ({
  ok: false,
  error: expect.objectContaining({ code, ...(message ? { message } : {}) }),
});

describe("exchangeAuthCode", () => {
  it("exchanges a code and its verifier once for a session with the flow's amr method", async () => {
    const { deps, user } = withIssuedCode();
    const done = await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER });
    expect(done).toMatchObject({
      ok: true,
      value: {
        providerType: "email",
        tokens: {
          user: { id: user.id, lastSignInAt: deps.clock.now() },
          session: { amr: [{ method: "recovery" }] },
        },
      },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({ action: "login", actorId: user.id });
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER })).toEqual(
      failure("flow_state_not_found", "invalid flow state, no valid flow state found"),
    );
  });

  it("gives no session for a code whose user was soft-deleted after it was issued", async () => {
    const { deps, user } = withIssuedCode();
    // The deletion drops the flow states (admin-delete-user.soft.test.ts); this is an exchange that
    // found the code still there.
    deps.store.tables.users.set(user.id, { ...user, deletedAt: deps.clock.now() });
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER })).toEqual(
      failure("flow_state_not_found"),
    );
    expect(deps.store.tables.sessions.size).toBe(0);
  });

  it("refuses a wrong verifier without spending the code", async () => {
    const { deps } = withIssuedCode();
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: `${VERIFIER}x` })).toEqual(
      failure("bad_code_verifier", "code challenge does not match previously saved code verifier"),
    );
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER })).toMatchObject({
      ok: true,
    });
  });

  it("refuses a code issued more than 300 s ago", async () => {
    const { deps } = withIssuedCode();
    deps.clock.advance(300_001);
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER })).toEqual(
      failure("flow_state_expired", "invalid flow state, flow state has expired"),
    );
  });

  it("needs both the code and the verifier, and refuses a banned user", async () => {
    const { deps, user } = withIssuedCode();
    expect(await exchangeAuthCode(deps, { authCode: "", codeVerifier: VERIFIER })).toEqual(
      failure("validation_failed", "invalid request: both auth code and code verifier should be non-empty"),
    );
    deps.store.tables.users.set(user.id, { ...user, bannedUntil: new Date("2099-01-01T00:00:00Z") });
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER })).toEqual(
      failure("user_banned"),
    );
  });

  it("gives exactly one of two concurrent exchanges of one code a session", async () => {
    const { deps } = withIssuedCode();
    const results = await Promise.all([
      exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER }),
      exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: VERIFIER }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(deps.store.tables.sessions.size).toBe(1);
  });
});
