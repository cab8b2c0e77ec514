import type { User } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { err, isUuid, ok, type Result } from "../../kernel/index.js";
import type { PasskeysDeps, PasskeysRepositories } from "../deps.js";
import type { WebauthnChallenge, WebauthnChallengeType } from "../passkey.js";
import type { CredentialRef, WebAuthnAccount } from "../ports/webauthn.js";

/** `PASSKEY_ENABLED` off: every `/passkeys/*` endpoint answers 404 `passkey_disabled`. */
export function passkeysEnabled(deps: Pick<PasskeysDeps, "settings">): Result<true> {
  return deps.settings.passkeys.enabled ? ok(true) : err(failures.passkeyDisabled());
}

/**
 * An SSO account signs in through its identity provider, which decides who may: a passkey would be a
 * way in the provider cannot revoke (the reference refuses them too).
 */
export function notSsoUser(user: User): Result<true> {
  return user.isSsoUser === true ? err(failures.passkeySsoUser()) : ok(true);
}

/**
 * The reference's `requirePasskeyManagementAAL`: a user with a verified second factor adds or removes
 * passkeys only from an aal2 session, else a stolen password alone could add a way in that skips the
 * second factor.
 */
export async function managementAllowed(
  repos: Pick<PasskeysRepositories, "factors" | "sessions">,
  user: User,
  sessionId: string | null,
): Promise<Result<true>> {
  if (user.isAnonymous) return err(failures.passkeyAnonymous());
  const factors = await repos.factors.listByUser(user.id);
  if (!factors.some((f) => f.status === "verified")) return ok(true);
  const session = sessionId === null ? null : await repos.sessions.find(sessionId);
  return session?.aal === "aal2" ? ok(true) : err(failures.passkeyNeedsAal2());
}

/**
 * Takes the challenge for good (one statement: of concurrent answers exactly one gets it), then
 * refuses it if it expired — it is gone either way, so a late answer cannot be retried.
 */
export async function takeChallenge(
  deps: Pick<PasskeysDeps, "store" | "clock">,
  input: { id: string; type: WebauthnChallengeType; userId: string | null },
): Promise<Result<WebauthnChallenge>> {
  if (!isUuid(input.id)) return err(failures.passkeyChallengeIdInvalid());
  const challenge = await deps.store.webauthnChallenges.consume(input.id, input.type, input.userId);
  if (challenge === null) return err(failures.webauthnChallengeNotFound());
  if (challenge.expiresAt.getTime() <= deps.clock.now().getTime())
    return err(failures.webauthnChallengeExpired());
  return ok(challenge);
}

/** The account a passkey is made for: the reference's `name` (email, else phone) and `displayName`. */
export function passkeyAccount(user: User): WebAuthnAccount {
  const name = user.email || user.phone || "";
  const metadataName = user.userMetadata.name;
  const displayName = typeof metadataName === "string" && metadataName !== "" ? metadataName : name;
  return { id: user.id, name, displayName };
}

export const credentialRef = (c: { credentialId: string; transports: readonly string[] }): CredentialRef => ({
  id: c.credentialId,
  transports: c.transports,
});

/** The answer's `expires_at`: Unix seconds. */
export const unixSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);
