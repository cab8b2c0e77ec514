import { describe, expect, it } from "vitest";
import { signedIn } from "../testing/mfa/signed-in.js";
import { deletePasskey, listPasskeys, renamePasskey } from "./manage-passkeys.js";
import { finishPasskeyRegistration, startPasskeyRegistration } from "./register-passkey.js";
import { signInWithPasskey, startPasskeySignIn } from "./sign-in-with-passkey.js";

/** A signed-in user on fake ports, and the answers of a fake authenticator (see fakeWebAuthn). */
async function setup(settings: { maxPerUser?: number } = {}) {
  const base = await signedIn();
  const { deps } = base;
  const passkeys = { ...deps.settings.passkeys, ...settings };
  const d = { ...deps, settings: { ...deps.settings, passkeys } };
  let credentials = 0;
  const register = async (fields: Record<string, unknown> = {}) => {
    const started = await startPasskeyRegistration(d, { user: base.user, sessionId: base.session.id });
    if (!started.ok) throw started.error;
    const credentialId = `cred-${++credentials}`;
    const credential = { challenge: started.value.options.challenge, credentialId, ...fields };
    return {
      started: started.value,
      finished: await finishPasskeyRegistration(d, {
        user: base.user,
        sessionId: base.session.id,
        challengeId: started.value.challengeId,
        credential,
      }),
    };
  };
  const assertion = async (credentialId: string, fields: Record<string, unknown> = {}) => {
    const started = await startPasskeySignIn(d);
    if (!started.ok) throw started.error;
    const credential = {
      challenge: started.value.options.challenge,
      credentialId,
      userHandle: base.user.id,
      publicKey: `key-of-${credentialId}`,
      signCount: 1,
      ...fields,
    };
    return { challengeId: started.value.challengeId, credential };
  };
  return { ...base, d, register, assertion };
}

describe("passkey registration", () => {
  it("stores the passkey, named Passkey when the authenticator is unknown, and excludes it next time", async () => {
    const s = await setup();
    const { finished } = await s.register();
    expect(finished).toMatchObject({ ok: true, value: { friendlyName: "Passkey", userId: s.user.id } });
    const again = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    expect(again.ok && again.value.options.excludeCredentials).toEqual([
      { id: "cred-1", transports: ["internal"] },
    ]);
    expect(s.deps.store.tables.audit.at(-1)).toMatchObject({ action: "passkey_created" });
  });

  it("refuses anonymous users, a disabled feature, and past the cap", async () => {
    const s = await setup({ maxPerUser: 1 });
    const anonymous = { ...s.user, isAnonymous: true };
    expect(await startPasskeyRegistration(s.d, { user: anonymous, sessionId: s.session.id })).toMatchObject({
      error: { code: "no_authorization" },
    });
    const off = {
      ...s.d,
      settings: { ...s.d.settings, passkeys: { ...s.d.settings.passkeys, enabled: false } },
    };
    expect(await startPasskeyRegistration(off, { user: s.user, sessionId: s.session.id })).toMatchObject({
      error: { code: "passkey_disabled" },
    });
    expect((await s.register()).finished.ok).toBe(true);
    expect(await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id })).toMatchObject({
      error: { code: "too_many_passkeys" },
    });
  });

  it("counts the cap again at verification: two ceremonies started under it add one passkey", async () => {
    const s = await setup({ maxPerUser: 1 });
    const a = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    const b = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    if (!a.ok || !b.ok) throw new Error("options refused");
    const finish = (started: typeof a.value, credentialId: string) =>
      finishPasskeyRegistration(s.d, {
        user: s.user,
        sessionId: s.session.id,
        challengeId: started.challengeId,
        credential: { challenge: started.options.challenge, credentialId },
      });
    expect((await finish(a.value, "one")).ok).toBe(true);
    expect(await finish(b.value, "two")).toMatchObject({ error: { code: "too_many_passkeys" } });
  });

  it("needs aal2 once the user has a verified second factor", async () => {
    const s = await setup();
    s.deps.store.tables.factors.set("f", {
      id: "22222222-2222-4222-8222-222222222222",
      userId: s.user.id,
      friendlyName: "app",
      factorType: "totp",
      status: "verified",
      secret: null,
      phone: null,
      createdAt: new Date(),
      updatedAt: new Date(),
      lastChallengedAt: null,
    });
    expect(await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id })).toMatchObject({
      error: { code: "insufficient_aal" },
    });
    s.deps.store.tables.sessions.set(s.session.id, { ...s.session, aal: "aal2" });
    expect((await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id })).ok).toBe(true);
  });

  it("refuses a credential registered already, a wrong challenge, a replay and another user's challenge", async () => {
    const s = await setup();
    expect((await s.register({ credentialId: "same" })).finished.ok).toBe(true);
    expect((await s.register({ credentialId: "same" })).finished).toMatchObject({
      error: { code: "webauthn_credential_exists" },
    });
    expect((await s.register({ challenge: "another" })).finished).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
    const started = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    if (!started.ok) throw started.error;
    const answer = {
      user: s.user,
      sessionId: s.session.id,
      challengeId: started.value.challengeId,
      credential: { challenge: started.value.options.challenge, credentialId: "fresh" },
    };
    const mallory = { ...s.user, id: "33333333-3333-4333-8333-333333333333" };
    expect(await finishPasskeyRegistration(s.d, { ...answer, user: mallory })).toMatchObject({
      error: { code: "webauthn_challenge_not_found" },
    });
    expect((await finishPasskeyRegistration(s.d, answer)).ok).toBe(true);
    expect(await finishPasskeyRegistration(s.d, answer)).toMatchObject({
      error: { code: "webauthn_challenge_not_found" },
    });
  });

  it("refuses an expired challenge, which is gone afterwards", async () => {
    const s = await setup();
    const started = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    if (!started.ok) throw started.error;
    s.deps.clock.advance(300_000);
    const answer = {
      user: s.user,
      sessionId: s.session.id,
      challengeId: started.value.challengeId,
      credential: { challenge: started.value.options.challenge, credentialId: "late" },
    };
    expect(await finishPasskeyRegistration(s.d, answer)).toMatchObject({
      error: { code: "webauthn_challenge_expired" },
    });
    expect(await finishPasskeyRegistration(s.d, answer)).toMatchObject({
      error: { code: "webauthn_challenge_not_found" },
    });
  });
});

/** Gives the user of `s` a verified TOTP factor: managing passkeys then needs aal2. */
function verifiedFactor(s: Awaited<ReturnType<typeof setup>>) {
  s.deps.store.tables.factors.set("f", {
    id: "22222222-2222-4222-8222-222222222222",
    userId: s.user.id,
    friendlyName: "app",
    factorType: "totp",
    status: "verified",
    secret: null,
    phone: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    lastChallengedAt: null,
  });
}

describe("passkey management rules", () => {
  it("needs aal2 to finish a registration and to delete once a factor is verified, not to rename or list", async () => {
    const s = await setup();
    const { finished } = await s.register({ credentialId: "kept" });
    if (!finished.ok) throw finished.error;
    const started = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    if (!started.ok) throw started.error;
    verifiedFactor(s);
    const answer = {
      user: s.user,
      sessionId: s.session.id,
      challengeId: started.value.challengeId,
      credential: { challenge: started.value.options.challenge, credentialId: "late" },
    };
    expect(await finishPasskeyRegistration(s.d, answer)).toMatchObject({
      error: { code: "insufficient_aal" },
    });
    const passkeyId = finished.value.id;
    const caller = { user: s.user, sessionId: s.session.id, passkeyId };
    expect(await deletePasskey(s.d, caller)).toMatchObject({ error: { code: "insufficient_aal" } });
    expect(await renamePasskey(s.d, { ...caller, friendlyName: "Laptop" })).toMatchObject({ ok: true });
    expect(await listPasskeys(s.d, { user: s.user })).toMatchObject({ ok: true, value: [{ id: passkeyId }] });
    s.deps.store.tables.sessions.set(s.session.id, { ...s.session, aal: "aal2" });
    expect(await deletePasskey(s.d, caller)).toEqual({ ok: true, value: true });
  });

  it("refuses SSO users: their way in belongs to their identity provider", async () => {
    const s = await setup();
    const started = await startPasskeyRegistration(s.d, { user: s.user, sessionId: s.session.id });
    if (!started.ok) throw started.error;
    const sso = { ...s.user, isSsoUser: true };
    const refusal = { error: { code: "validation_failed", message: "SSO users cannot register passkeys" } };
    expect(await startPasskeyRegistration(s.d, { user: sso, sessionId: s.session.id })).toMatchObject(
      refusal,
    );
    const answer = {
      user: sso,
      sessionId: s.session.id,
      challengeId: started.value.challengeId,
      credential: { challenge: started.value.options.challenge, credentialId: "sso" },
    };
    expect(await finishPasskeyRegistration(s.d, answer)).toMatchObject(refusal);
    expect(s.deps.store.tables.passkeys.size).toBe(0);
  });
});

describe("passkey sign-in", () => {
  it("starts an aal1 session with amr passkey, and stores the counter", async () => {
    const s = await setup();
    await s.register({ credentialId: "mine" });
    const answer = await s.assertion("mine", { signCount: 9 });
    const signed = await signInWithPasskey(s.d, answer);
    if (!signed.ok) throw signed.error;
    expect(signed.value.session).toMatchObject({ aal: "aal1", amr: [{ method: "passkey" }] });
    expect(signed.value.user.id).toBe(s.user.id);
    const stored = [...s.deps.store.tables.passkeys.values()][0];
    expect(stored).toMatchObject({ signCount: 9, lastUsedAt: s.deps.clock.now() });
    expect(await signInWithPasskey(s.d, answer)).toMatchObject({
      error: { code: "webauthn_challenge_not_found" },
    });
  });

  it.each([
    ["an unknown user handle", { userHandle: "44444444-4444-4444-8444-444444444444" }],
    ["a user handle that is not a user id", { userHandle: "alice" }],
    ["no user handle", { userHandle: null }],
    ["a wrong signature", { publicKey: "forged" }],
    ["another challenge", { challenge: "other" }],
    ["a credential that became backup eligible", { backupEligible: true }],
    ["backed up without being eligible", { backedUp: true }],
  ])("refuses %s", async (_, fields) => {
    const s = await setup();
    await s.register({ credentialId: "mine" });
    expect(await signInWithPasskey(s.d, await s.assertion("mine", fields))).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
    expect(s.deps.store.tables.sessions.size).toBe(1);
  });

  it("refuses another user's credential under this user's handle", async () => {
    const s = await setup();
    const bob = { ...s.user, id: "55555555-5555-4555-8555-555555555555", email: "bob@example.com" };
    s.deps.store.tables.users.set(bob.id, bob);
    await s.register({ credentialId: "alices" });
    expect(await signInWithPasskey(s.d, await s.assertion("alices", { userHandle: bob.id }))).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
    // Even signed by Bob's key, an assertion naming a credential that is not Bob's does not sign him in.
    const alices = [...s.deps.store.tables.passkeys.values()][0];
    if (alices === undefined) throw new Error("no passkey");
    const bobs = { ...alices, id: "66666666-6666-4666-8666-666666666666", userId: bob.id };
    await s.deps.store.passkeys.insert({ ...bobs, credentialId: "bobs", publicKey: "key-of-bobs" });
    const named = await s.assertion("alices", { userHandle: bob.id, publicKey: "key-of-bobs" });
    expect(await signInWithPasskey(s.d, named)).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
  });

  it("tells a banned or unconfirmed user so only after the signature", async () => {
    const s = await setup();
    await s.register({ credentialId: "mine" });
    s.deps.store.tables.users.set(s.user.id, { ...s.user, bannedUntil: new Date(Date.UTC(2100, 0)) });
    expect(await signInWithPasskey(s.d, await s.assertion("mine"))).toMatchObject({
      error: { code: "user_banned" },
    });
    s.deps.store.tables.users.set(s.user.id, { ...s.user, emailConfirmedAt: null });
    expect(await signInWithPasskey(s.d, await s.assertion("mine"))).toMatchObject({
      error: { code: "email_not_confirmed" },
    });
    expect(await signInWithPasskey(s.d, await s.assertion("mine", { publicKey: "x" }))).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
    s.deps.store.tables.users.set(s.user.id, { ...s.user, phone: "15550001111", phoneConfirmedAt: null });
    expect(await signInWithPasskey(s.d, await s.assertion("mine"))).toMatchObject({
      error: { code: "phone_not_confirmed" },
    });
  });

  it("tells an unconfirmed address before a ban, in the reference's order, and starts no session", async () => {
    const s = await setup();
    await s.register({ credentialId: "mine" });
    const banned = { bannedUntil: new Date(Date.UTC(2100, 0)) };
    s.deps.store.tables.users.set(s.user.id, { ...s.user, ...banned, emailConfirmedAt: null });
    expect(await signInWithPasskey(s.d, await s.assertion("mine", { signCount: 3 }))).toMatchObject({
      error: { code: "email_not_confirmed" },
    });
    s.deps.store.tables.users.set(s.user.id, { ...s.user, ...banned, phone: "15550001111" });
    expect(await signInWithPasskey(s.d, await s.assertion("mine", { signCount: 4 }))).toMatchObject({
      error: { code: "phone_not_confirmed" },
    });
    expect(s.deps.store.tables.sessions.size).toBe(1);
    expect([...s.deps.store.tables.passkeys.values()][0]).toMatchObject({ signCount: 0, lastUsedAt: null });
  });

  it("counts a counter value once: a second sign-in showing it is refused", async () => {
    const s = await setup();
    await s.register({ credentialId: "mine" });
    const first = await s.assertion("mine", { signCount: 4 });
    const second = await s.assertion("mine", { signCount: 4 });
    const answers = await Promise.all([signInWithPasskey(s.d, first), signInWithPasskey(s.d, second)]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.find((a) => !a.ok)).toMatchObject({ error: { code: "webauthn_verification_failed" } });
  });

  it("refuses an expired sign-in challenge", async () => {
    const s = await setup();
    await s.register({ credentialId: "mine" });
    const answer = await s.assertion("mine");
    s.deps.clock.advance(301_000);
    expect(await signInWithPasskey(s.d, answer)).toMatchObject({
      error: { code: "webauthn_challenge_expired" },
    });
  });
});
