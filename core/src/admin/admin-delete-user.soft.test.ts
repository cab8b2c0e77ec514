import { describe, expect, it } from "vitest";
import { exchangeAuthCode } from "../pkce/index.js";
import { signInWithPassword } from "../sessions/index.js";
import { aFlowState, fakeDeps } from "../testing/index.js";
import { adminCreateUser } from "./admin-create-user.js";
import { adminDeleteUser } from "./admin-delete-user.js";
import { adminListUsers } from "./admin-list-users.js";
import { obfuscator } from "./obfuscate.js";

const actor = { role: "service_role" };

async function setUp() {
  const deps = fakeDeps();
  const created = await adminCreateUser(deps, {
    actor,
    fields: {
      email: "alice@example.com",
      phone: "+15550100",
      password: "correct horse",
      emailConfirm: true,
      userMetadata: { full_name: "Alice" },
      appMetadata: { plan: "pro" },
    },
  });
  if (!created.ok) throw created.error;
  const alice = created.value;
  const signIn = () => signInWithPassword(deps, { email: "alice@example.com", password: "correct horse" });
  const session = await signIn();
  if (!session.ok) throw session.error;
  deps.store.tables.audit.length = 0;
  return { deps, alice, signIn };
}

describe("adminDeleteUser with softDelete", () => {
  it("obfuscates the user as the reference, ends every session, and keeps the row", async () => {
    const { deps, alice } = await setUp();
    const now = deps.clock.now();
    const factor = { id: "44444444-4444-4444-8444-444444444444", userId: alice.id, friendlyName: "app" };
    const stamps = { createdAt: now, updatedAt: now, lastChallengedAt: null };
    const totp = { factorType: "totp", status: "verified", secret: "sealed", phone: null } as const;
    deps.store.tables.factors.set(factor.id, { ...factor, ...totp, ...stamps });
    expect(await adminDeleteUser(deps, { actor, userId: alice.id, softDelete: true })).toEqual({
      ok: true,
      value: undefined,
    });
    const hide = obfuscator(deps.tokens, alice.id);
    const { users, identities, sessions, tokens, oneTimeTokens, audit } = deps.store.tables;
    expect(users.get(alice.id)).toMatchObject({
      email: hide.email("alice@example.com"),
      phone: hide.phone("15550100"),
      emailChange: hide.email(null),
      phoneChange: hide.phone(null),
      encryptedPassword: null,
      userMetadata: {},
      appMetadata: {},
      deletedAt: now,
    });
    expect([...identities.values()].map((i) => [i.provider, i.providerId, i.identityData]).sort()).toEqual([
      ["email", hide.providerId("email", alice.id), {}],
      ["phone", hide.providerId("phone", alice.id), {}],
    ]);
    expect(sessions.size).toBe(0);
    expect(tokens.size).toBe(0);
    expect(deps.store.tables.factors.size).toBe(0);
    expect([...oneTimeTokens.values()].filter((t) => t.userId === alice.id)).toEqual([]);
    // Recorded first, with the values as they were (the reference does the same).
    expect(audit).toEqual([
      {
        action: "user_deleted",
        actorId: "",
        actorUsername: "service_role",
        traits: { user_id: alice.id, user_email: "alice@example.com", user_phone: "15550100" },
        at: now,
      },
    ]);
  });

  it("drops the user's flow states, so a PKCE code issued before the deletion gives no session", async () => {
    const { deps, alice } = await setUp();
    const verifier = "v".repeat(43);
    const pending = aFlowState({ userId: alice.id, codeChallenge: verifier, codeChallengeMethod: "plain" });
    const issued = {
      ...pending,
      authCodeHash: deps.tokens.hash("code-1"),
      authCodeIssuedAt: deps.clock.now(),
      createdAt: deps.clock.now(),
    };
    const linking = aFlowState({ linkingTargetId: alice.id, authenticationMethod: "oauth" });
    const someoneElse = aFlowState({ userId: "55555555-5555-4555-8555-555555555555" });
    for (const s of [issued, linking, someoneElse]) deps.store.tables.flowStates.set(s.id, s);
    await adminDeleteUser(deps, { actor, userId: alice.id, softDelete: true });
    expect([...deps.store.tables.flowStates.keys()]).toEqual([someoneElse.id]);
    expect(await exchangeAuthCode(deps, { authCode: "code-1", codeVerifier: verifier })).toMatchObject({
      ok: false,
      error: { code: "flow_state_not_found" },
    });
    expect(deps.store.tables.sessions.size).toBe(0);
  });

  it("leaves the user unable to sign in, the address free, and the user still listed, marked deleted", async () => {
    const { deps, alice, signIn } = await setUp();
    await adminDeleteUser(deps, { actor, userId: alice.id, softDelete: true });
    expect(await signIn()).toMatchObject({ ok: false, error: { code: "invalid_credentials" } });
    const again = await adminCreateUser(deps, {
      actor,
      fields: { email: "alice@example.com", phone: "+15550100" },
    });
    expect(again.ok).toBe(true);
    const listed = await adminListUsers(deps, {});
    if (!listed.ok) throw listed.error;
    expect(listed.value.users.map((u) => [u.id, u.deletedAt !== null]).sort()).toEqual(
      [
        [alice.id, true],
        [again.ok ? again.value.id : "", false],
      ].sort(),
    );
  });

  it("changes nothing on a user already soft-deleted (the entry is still recorded)", async () => {
    const { deps, alice } = await setUp();
    await adminDeleteUser(deps, { actor, userId: alice.id, softDelete: true });
    const before = deps.store.tables.users.get(alice.id);
    deps.clock.advance(1000);
    expect((await adminDeleteUser(deps, { actor, userId: alice.id, softDelete: true })).ok).toBe(true);
    expect(deps.store.tables.users.get(alice.id)).toEqual(before);
    expect(deps.store.tables.audit.map((e) => e.action)).toEqual(["user_deleted", "user_deleted"]);
  });

  it("deletes a soft-deleted user for good when asked without softDelete", async () => {
    const { deps, alice } = await setUp();
    await adminDeleteUser(deps, { actor, userId: alice.id, softDelete: true });
    expect((await adminDeleteUser(deps, { actor, userId: alice.id })).ok).toBe(true);
    expect(deps.store.tables.users.has(alice.id)).toBe(false);
  });
});
