import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { LeakedPasswords } from "./ports/leaked-passwords.js";

/** The longest password accepted, in characters (code points). */
export const MAX_PASSWORD_LENGTH = 1024;

/** `PASSWORD_MIN_LENGTH` and `PASSWORD_REQUIRED_CHARACTERS` (each string a set of characters). */
export interface PasswordPolicy {
  readonly minLength: number;
  readonly requiredCharacters: readonly string[];
}

/** The policy and the leaked-password check (`PASSWORD_HIBP_*`). */
export interface PasswordSettings extends PasswordPolicy {
  readonly leaked: {
    /** Ask the leaked-password corpus about every new password (and every password signing in). */
    readonly enabled: boolean;
    /** A corpus that cannot be asked refuses the password (500) instead of letting it through. */
    readonly failClosed: boolean;
  };
}

/** Why a password is weak: the reference's reason codes and sentences, in its order. */
export interface PasswordWeakness {
  readonly reasons: readonly string[];
  readonly message: string;
}

const PWNED_SENTENCE = "Password is known to be weak and easy to guess, please choose a different one.";

/** Code points in `s`, counting no further than `limit + 1` so a huge input costs little. */
function codePointLength(s: string, limit: number): number {
  let n = 0;
  for (const _ of s) {
    if (++n > limit) break;
  }
  return n;
}

/**
 * The policy's reasons and sentences for `password` (none: it passes), as GoTrue's
 * `checkPasswordStrength`: lengths are counted in characters (code points, so "€" counts once); over
 * 1024 is a failure (400 `validation_failed`); too short and/or missing a character from one of the
 * required sets are reasons `length` then `characters`, with GoTrue's sentences.
 */
function policyFindings(
  policy: PasswordPolicy,
  password: string,
): Result<{ reasons: string[]; messages: string[] }> {
  const length = codePointLength(password, Math.max(MAX_PASSWORD_LENGTH, policy.minLength));
  if (length > MAX_PASSWORD_LENGTH) {
    return err(failures.passwordTooLong(MAX_PASSWORD_LENGTH));
  }
  const reasons: string[] = [];
  const messages: string[] = [];
  if (length < policy.minLength) {
    reasons.push("length");
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  const characters = new Set(password);
  // An empty set cannot be satisfied and is ignored, as GoTrue does.
  const missingSet = policy.requiredCharacters.some(
    (set) => set !== "" && !Array.from(set).some((c) => characters.has(c)),
  );
  if (missingSet) {
    reasons.push("characters");
    messages.push(
      `Password should contain at least one character of each: ${policy.requiredCharacters.join(", ")}.`,
    );
  }
  return ok({ reasons, messages });
}

/**
 * The policy's findings, then — when the check is on — the leaked-password corpus's (`pwned`), as the
 * reference gathers them. `unavailable` is the corpus's answer when it cannot be asked. It waits on
 * the network: never call it inside a transaction or under a row lock.
 */
async function weaknessOf(
  deps: {
    readonly settings: { readonly password: PasswordSettings };
    readonly leakedPasswords: LeakedPasswords;
  },
  password: string,
): Promise<Result<{ reasons: string[]; messages: string[]; unavailable: boolean }>> {
  const settings = deps.settings.password;
  const found = policyFindings(settings, password);
  if (!found.ok) return found;
  const { reasons, messages } = found.value;
  if (!settings.leaked.enabled) return ok({ reasons, messages, unavailable: false });
  const verdict = await deps.leakedPasswords.check(password);
  if (verdict === "leaked") {
    reasons.push("pwned");
    messages.push(PWNED_SENTENCE);
  }
  return ok({ reasons, messages, unavailable: verdict === "unavailable" });
}

/**
 * Checks a password about to be set: the policy, then the leaked-password corpus when
 * `PASSWORD_HIBP_ENABLED` (reason `pwned`). A corpus that cannot be asked lets the password through
 * (the adapter logs it), or with `PASSWORD_HIBP_FAIL_CLOSED` refuses it with the reference's 500.
 * Waits on the network: call it before any transaction, never under a row lock.
 */
export async function checkNewPassword(
  deps: {
    readonly settings: { readonly password: PasswordSettings };
    readonly leakedPasswords: LeakedPasswords;
  },
  password: string,
): Promise<Result<void>> {
  const found = await weaknessOf(deps, password);
  if (!found.ok) return found;
  const { reasons, messages, unavailable } = found.value;
  if (reasons.length > 0) return err(failures.weakPassword(messages, reasons));
  if (unavailable && deps.settings.password.leaked.failClosed) {
    return err(failures.passwordCheckUnavailable());
  }
  return ok(undefined);
}

/**
 * What a successful password sign-in tells of a correct password that is weak by today's policy or
 * leaked (the token answer's `weak_password`, as the reference); null for a strong one, and when the
 * corpus cannot be asked — the sign-in itself never depends on it.
 */
export async function passwordWeakness(
  deps: {
    readonly settings: { readonly password: PasswordSettings };
    readonly leakedPasswords: LeakedPasswords;
  },
  password: string,
): Promise<PasswordWeakness | null> {
  const found = await weaknessOf(deps, password);
  if (!found.ok || found.value.reasons.length === 0) return null;
  return { reasons: found.value.reasons, message: found.value.messages.join(" ") };
}
