import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

/** The longest password accepted, in characters (code points). */
export const MAX_PASSWORD_LENGTH = 1024;

/** `PASSWORD_MIN_LENGTH` and `PASSWORD_REQUIRED_CHARACTERS` (each string a set of characters). */
export interface PasswordPolicy {
  readonly minLength: number;
  readonly requiredCharacters: readonly string[];
}

/** Code points in `s`, counting no further than `limit + 1` so a huge input costs little. */
function codePointLength(s: string, limit: number): number {
  let n = 0;
  for (const _ of s) {
    if (++n > limit) break;
  }
  return n;
}

/**
 * Checks a new password against the policy, as GoTrue's `checkPasswordStrength`: lengths are counted
 * in characters (code points, so "€" counts once); over 1024 → 400 `validation_failed`; too short
 * and/or missing a character from one of the required sets → 422 `weak_password` with
 * `{ weak_password: { reasons } }`, reasons `length` then `characters`, and GoTrue's sentences.
 */
export function checkPassword(policy: PasswordPolicy, password: string): Result<void> {
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
  if (reasons.length === 0) return ok(undefined);
  return err(failures.weakPassword(messages, reasons));
}
