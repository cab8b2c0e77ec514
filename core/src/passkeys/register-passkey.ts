import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { PasskeysDeps } from "./deps.js";
import type { Passkey } from "./passkey.js";
import {
  credentialRef,
  managementAllowed,
  notSsoUser,
  passkeyAccount,
  passkeysEnabled,
  takeChallenge,
  unixSeconds,
} from "./steps/rules.js";

export interface CeremonyStarted {
  readonly challengeId: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** Unix seconds. */
  readonly expiresAt: number;
}

type Deps = Pick<PasskeysDeps, "store" | "clock" | "random" | "settings" | "webauthn">;

/**
 * `POST /passkeys/registration/options`: creation options for a new passkey of the signed-in user,
 * excluding the credentials they registered already. Refused to SSO and anonymous users, past
 * `PASSKEY_MAX_PASSKEYS_PER_USER`, and below aal2 for a user with a verified second factor.
 */
export async function startPasskeyRegistration(
  deps: Deps,
  input: { user: User; sessionId: string | null },
): Promise<Result<CeremonyStarted>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  const { user } = input;
  const direct = notSsoUser(user);
  if (!direct.ok) return direct;
  const allowed = await managementAllowed(deps.store, user, input.sessionId);
  if (!allowed.ok) return allowed;
  const existing = await deps.store.passkeys.listByUser(user.id);
  if (existing.length >= deps.settings.passkeys.maxPerUser) return err(failures.tooManyPasskeys());
  const ceremony = await deps.webauthn.creationOptions({
    rp: deps.settings.webauthn.rp,
    account: passkeyAccount(user),
    exclude: existing.map(credentialRef),
    flavour: "passkey",
  });
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.settings.passkeys.challengeExpiry * 1000);
  const id = deps.random.uuid();
  await deps.store.webauthnChallenges.insert({
    id,
    userId: user.id,
    type: "registration",
    state: ceremony.state,
    createdAt: now,
    expiresAt,
  });
  return ok({ challengeId: id, options: ceremony.options, expiresAt: unixSeconds(expiresAt) });
}

/**
 * `POST /passkeys/registration/verify`: verifies the authenticator's answer to the user's registration
 * challenge (taken for good first) and stores the passkey, named after its authenticator model. The cap
 * is counted again under the user's row lock, so parallel registrations cannot pass it; a credential id
 * registered already, by anyone, is refused.
 */
export async function finishPasskeyRegistration(
  deps: Deps,
  input: { user: User; sessionId: string | null; challengeId: string; credential: unknown },
): Promise<Result<Passkey>> {
  const enabled = passkeysEnabled(deps);
  if (!enabled.ok) return enabled;
  const { user } = input;
  const direct = notSsoUser(user);
  if (!direct.ok) return direct;
  const allowed = await managementAllowed(deps.store, user, input.sessionId);
  if (!allowed.ok) return allowed;
  const challenge = await takeChallenge(deps, {
    id: input.challengeId,
    type: "registration",
    userId: user.id,
  });
  if (!challenge.ok) return challenge;
  const rp = deps.settings.webauthn.rp;
  const verified = await deps.webauthn.verifyRegistration(rp, challenge.value.state, input.credential);
  if (!verified.ok) return err(failures.webauthnVerificationFailed());
  const credential = verified.value;
  const now = deps.clock.now();
  const passkey: Passkey = {
    ...credential,
    id: deps.random.uuid(),
    userId: user.id,
    friendlyName: deps.webauthn.authenticatorName(credential.aaguid),
    createdAt: now,
    updatedAt: now,
    lastUsedAt: null,
  };
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Passkey>> => {
    if ((await repos.users.lock(user.id)) === null) return err(failures.jwtUserMissing());
    const count = (await repos.passkeys.listByUser(user.id)).length;
    if (count >= deps.settings.passkeys.maxPerUser) return err(failures.tooManyPasskeys());
    if ((await repos.passkeys.insert(passkey)) === "exists") return err(failures.webauthnCredentialExists());
    await repos.audit.record({
      action: "passkey_created",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: { passkey_id: passkey.id },
      at: now,
    });
    return ok(passkey);
  });
}
