import {
  afterFailure,
  isBanned,
  NO_FAILURES,
  normalizeEmail,
  normalizePhone,
  type PasswordWeakness,
  passwordWeakness,
  refusesNow,
  signInKey,
  type User,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import { passwordVerificationAttempt } from "../hooks/index.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { PasswordSignInStore, SessionsDeps } from "./deps.js";
import { defineGrant } from "./grants.js";
import { newSession, type SessionTokens, signSession } from "./steps/issue-session.js";

const invalidCredentials = () => failures.invalidCredentials();

/** A password sign-in's session, and why its correct password is weak, when it is. */
export type PasswordSignIn = SessionTokens & { readonly weakPassword?: PasswordWeakness };

/**
 * The password grant: signs in with an email or a phone number and a password, starting a new session.
 * An unknown address, a user without a password and a wrong password give the same answer in the same
 * time; whether the user is banned or unconfirmed is only told to someone who knows the password.
 * The password verification attempt hook, when on, hears of every attempt on an existing account
 * (right or wrong password) before anything else is decided, and may refuse it (`invalid_credentials`
 * with its message, optionally ending all the user's sessions); it runs before anything is written.
 * Wrong passwords are counted per identifier across instances (`LOCKOUT_*`, see lockout.ts): after
 * a few, attempts wait, then the identifier is locked for a while; refused attempts answer exactly as a
 * wrong password does, and a right password clears the count.
 * A correct password that today's policy or the leaked-password corpus finds weak still signs in; the
 * answer tells why (`weakPassword`, the token answer's `weak_password`), as the reference's.
 */
export async function signInWithPassword(
  deps: Pick<
    SessionsDeps,
    "clock" | "hasher" | "leakedPasswords" | "signer" | "settings" | "random" | "tokens"
  > & { readonly store: PasswordSignInStore } & Partial<Pick<SessionsDeps, "hooks">>,
  input: { email?: string; phone?: string; password: string },
): Promise<Result<PasswordSignIn>> {
  const { email, phone, password } = input;
  if (email && phone) {
    return err(failures.loginEmailOrPhone());
  }
  if (!email && !phone) return err(failures.loginEmailOrPhoneMissing());
  const channel = email ? "email" : "phone";
  const { emailEnabled, phoneEnabled } = deps.settings.signup;
  if (channel === "email" && !emailEnabled) {
    return err(failures.emailPasswordLoginsDisabled());
  }
  if (channel === "phone" && !phoneEnabled) {
    return err(failures.phonePasswordLoginsDisabled());
  }

  const attemptAt = deps.clock.now();
  const found = await findUser(deps, email, phone);
  const { lockout } = deps.settings;
  const key =
    lockout.enabled && found.normalized !== null
      ? signInKey(deps.tokens.hash, channel, found.normalized)
      : null;
  const counted = key === null ? NO_FAILURES : await deps.store.signInFailures.read(key);
  const user = found.user;
  // A locked (or waiting) identifier is answered as a wrong password, in the same time and with the
  // same writes, whether the password is right or the account exists: the answer tells nothing.
  if (key !== null && refusesNow(counted, lockout, attemptAt)) {
    await deps.hasher.verifyDummy(password);
    await countFailure(deps, key, user, attemptAt);
    return err(invalidCredentials());
  }
  if (user === null || user.encryptedPassword === null) {
    // Spend the time of a real verification so that timing does not tell whether the account exists.
    await deps.hasher.verifyDummy(password);
    if (key !== null) await countFailure(deps, key, null, attemptAt);
    return err(invalidCredentials());
  }
  const storedHash = user.encryptedPassword;
  const valid = await deps.hasher.verify(storedHash, password);
  const verdict = await passwordVerificationAttempt(deps, { userId: user.id, valid });
  if (verdict !== null) {
    if (verdict.logout) await deps.store.sessions.deleteForUser(user.id);
    return err(verdict.refusal);
  }
  if (!valid) {
    if (key !== null) await countFailure(deps, key, user, attemptAt);
    return err(invalidCredentials());
  }
  if (key !== null && counted.failedAttempts > 0) await deps.store.signInFailures.clear([key]);

  const now = deps.clock.now();
  if (isBanned(user, now)) return err(failures.userBannedAtTokenGrant());
  if (channel === "email" && user.emailConfirmedAt === null) {
    return err(failures.emailNotConfirmed());
  }
  if (channel === "phone" && user.phoneConfirmedAt === null) {
    return err(failures.phoneNotConfirmed());
  }
  // Upgrade imported bcrypt/argon2i hashes now that the plaintext is at hand; hashed before the
  // writes so that no row lock is held during the slow hash.
  const upgradedHash = deps.hasher.needsRehash(storedHash) ? await deps.hasher.hash(password) : null;
  // Before the grant's write: the leaked-password check waits on the network.
  const weakPassword = await passwordWeakness(deps, password);

  const session = newSession(deps, user.id, "password", now);
  const refreshToken = deps.tokens.generate();
  const grant = {
    userId: user.id,
    verifiedHash: storedHash,
    upgradedHash,
    now,
    session,
    refreshTokenHash: deps.tokens.hash(refreshToken),
    provider: channel,
  };
  // Every write of the sign-in in one step of the store (one statement on Postgres, which holds the
  // user's row lock only while it runs): stamped only if the password hash is still the one verified
  // (a user deleted or whose password changed meanwhile cannot sign in with the old one), and only
  // the sign-in's columns, so nothing changed meanwhile (e.g. by an admin update) is undone.
  const signedIn = await deps.store.sessions.grantPassword(grant);
  if (signedIn === null) return err(invalidCredentials());
  // The custom access token hook runs after the grant committed (issue-session.ts): its failure ends
  // the session.
  const signed = await signSession(deps, { session, refreshToken, user: signedIn, method: "password", now });
  if (!signed.ok || weakPassword === null) return signed;
  return ok({ ...signed.value, weakPassword });
}

/**
 * The user with this address, or null — also for an address that is not valid at all — and the
 * address normalized (null when it is not valid), which the lockout counts under.
 */
async function findUser(
  deps: Pick<SessionsDeps, "store">,
  email: string | undefined,
  phone: string | undefined,
): Promise<{ user: User | null; normalized: string | null }> {
  const normalized = email ? normalizeEmail(email) : normalizePhone(phone ?? "");
  if (!normalized.ok) return { user: null, normalized: null };
  const user = email
    ? await deps.store.users.findByEmail(normalized.value)
    : await deps.store.users.findByPhone(normalized.value);
  return { user, normalized: normalized.value };
}

/**
 * Counts one refused attempt on the identifier, under its row lock (so parallel attempts on any
 * instance count one after another and exactly one of them starts a lock); a lock of an existing
 * account is audited in the same transaction.
 */
async function countFailure(
  deps: Pick<SessionsDeps, "settings"> & { readonly store: PasswordSignInStore },
  key: string,
  user: User | null,
  now: Date,
): Promise<void> {
  await deps.store.transaction(async (repos) => {
    const next = afterFailure(await repos.signInFailures.lock(key), deps.settings.lockout, now);
    await repos.signInFailures.write(key, next.count, { expiresAt: next.expiresAt, locked: next.locked });
    if (next.locked && user !== null) {
      await repos.audit.record({
        action: "user_locked",
        actorId: user.id,
        actorUsername: user.phone || user.email || "",
        traits: { failed_attempts: next.count.failedAttempts, locked_until: next.count.lockedUntil },
        at: now,
      });
    }
  });
}

/** `POST /token?grant_type=password`. */
export const passwordGrant = defineGrant("password", signInWithPassword);
