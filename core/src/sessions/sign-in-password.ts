import {
  isBanned,
  normalizeEmail,
  normalizePhone,
  type PasswordWeakness,
  passwordWeakness,
  type User,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import { passwordVerificationAttempt } from "../hooks/index.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { SessionsDeps } from "./deps.js";
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
 * A correct password that today's policy or the leaked-password corpus finds weak still signs in; the
 * answer tells why (`weakPassword`, the token answer's `weak_password`), as the reference's.
 */
export async function signInWithPassword(
  deps: Pick<
    SessionsDeps,
    "store" | "clock" | "hasher" | "leakedPasswords" | "signer" | "settings" | "random" | "tokens"
  > &
    Partial<Pick<SessionsDeps, "hooks">>,
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

  const user = await findUser(deps, email, phone);
  if (user === null || user.encryptedPassword === null) {
    // Spend the time of a real verification so that timing does not tell whether the account exists.
    await deps.hasher.verifyDummy(password);
    return err(invalidCredentials());
  }
  const storedHash = user.encryptedPassword;
  const valid = await deps.hasher.verify(storedHash, password);
  const verdict = await passwordVerificationAttempt(deps, { userId: user.id, valid });
  if (verdict !== null) {
    if (verdict.logout) await deps.store.sessions.deleteForUser(user.id);
    return err(verdict.refusal);
  }
  if (!valid) return err(invalidCredentials());

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

/** The user with this address, or null — also for an address that is not valid at all. */
async function findUser(
  deps: Pick<SessionsDeps, "store">,
  email: string | undefined,
  phone: string | undefined,
): Promise<User | null> {
  if (email) {
    const normalized = normalizeEmail(email);
    return normalized.ok ? deps.store.users.findByEmail(normalized.value) : null;
  }
  const normalized = normalizePhone(phone ?? "");
  return normalized.ok ? deps.store.users.findByPhone(normalized.value) : null;
}

/** `POST /token?grant_type=password`. */
export const passwordGrant = defineGrant("password", signInWithPassword);
