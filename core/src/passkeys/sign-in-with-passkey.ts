import { isBanned } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import { issueSession, type SessionTokens, signSession } from "../sessions/index.js";
import type { PasskeysDeps } from "./deps.js";
import type { CeremonyStarted } from "./register-passkey.js";
import { passkeysEnabled, takeChallenge, unixSeconds } from "./steps/rules.js";

type Deps = Pick<PasskeysDeps, "store" | "clock" | "random" | "tokens" | "settings" | "webauthn" | "signer"> &
  Partial<Pick<PasskeysDeps, "hooks">>;

/**
 * `POST /passkeys/authentication/options`: request options for a discoverable credential (no
 * `allowCredentials`: the passkey tells who it is). Expired challenges of earlier ceremonies go.
 */
export async function startPasskeySignIn(
  deps: Omit<Deps, "signer" | "tokens">,
): Promise<Result<CeremonyStarted>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  const now = deps.clock.now();
  await deps.store.webauthnChallenges.deleteExpired(now);
  const ceremony = await deps.webauthn.requestOptions({
    rp: deps.settings.webauthn.rp,
    allow: [],
    flavour: "passkey",
  });
  const expiresAt = new Date(now.getTime() + deps.settings.passkeys.challengeExpiry * 1000);
  const id = deps.random.uuid();
  await deps.store.webauthnChallenges.insert({
    id,
    userId: null,
    type: "authentication",
    state: ceremony.state,
    createdAt: now,
    expiresAt,
  });
  return ok({ challengeId: id, options: ceremony.options, expiresAt: unixSeconds(expiresAt) });
}

/**
 * `POST /passkeys/authentication/verify`: signs in with a passkey. The challenge is taken for good
 * first; the user is the one the assertion's user handle names (the UTF-8 text of their id, as the
 * reference), and the credential must be one of theirs; the signature, counter and flags are checked
 * before anything about the user is told (unconfirmed, banned). Starts an aal1 session with `amr`
 * method `passkey`: a passkey is one factor, and a user with a second factor still verifies it.
 */
export async function signInWithPasskey(
  deps: Deps,
  input: { challengeId: string; credential: unknown },
): Promise<Result<SessionTokens>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  const challenge = await takeChallenge(deps, {
    id: input.challengeId,
    type: "authentication",
    userId: null,
  });
  if (!challenge.ok) return challenge;
  const claim = deps.webauthn.readAssertion(input.credential);
  if (claim === null) return err(failures.webauthnCredentialInvalid());
  const refused = () => err(failures.webauthnVerificationFailed());
  if (claim.userHandle === null || !isUuid(claim.userHandle)) return refused();
  const user = await deps.store.users.findById(claim.userHandle);
  if (user === null || user.deletedAt !== null) return refused();
  const passkey = (await deps.store.passkeys.listByUser(user.id)).find(
    (p) => p.credentialId === claim.credentialId,
  );
  if (passkey === undefined) return refused();
  const rp = deps.settings.webauthn.rp;
  const verified = await deps.webauthn.verifyAssertion(rp, challenge.value.state, input.credential, passkey);
  if (!verified.ok) return refused();
  const use = verified.value;
  // A credential's eligibility for backup is fixed when it is made; one that changes is not the same
  // credential. Backed up without being eligible is not a state an authenticator may report.
  if (use.backupEligible !== passkey.backupEligible || (use.backedUp && !use.backupEligible))
    return refused();

  const now = deps.clock.now();
  const started = await transactionRollingBackOn(deps.store, async (repos) => {
    // The user as they are now, under their row lock: a ban or an address change since the lookup
    // above (or since the ceremony started) counts. Told only to whoever proved the passkey, in the
    // reference's order; a refusal rolls back the use below, so the counter is not spent.
    const current = await repos.users.lock(user.id);
    if (current === null || current.deletedAt !== null) return err(failures.webauthnVerificationFailed());
    if (current.email && current.emailConfirmedAt === null) return err(failures.emailNotConfirmed());
    if (current.phone && current.phoneConfirmedAt === null) return err(failures.phoneNotConfirmed());
    if (isBanned(current, now)) return err(failures.userBanned());
    // Two sign-ins showing one counter value (a cloned authenticator used twice at once): one passes.
    const recorded = await repos.passkeys.recordUse(passkey.id, {
      signCount: use.signCount,
      backedUp: use.backedUp,
      at: now,
    });
    if (!recorded) return err(failures.webauthnVerificationFailed());
    const signedIn = { ...current, lastSignInAt: now };
    await repos.users.update(signedIn);
    await repos.audit.record({
      action: "login",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: { passkey_id: passkey.id },
      at: now,
    });
    return ok(await issueSession(deps, repos, signedIn, "passkey", now));
  });
  return started.ok ? signSession(deps, started.value) : started;
}
