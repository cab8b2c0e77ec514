import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

const E164_DIGITS = /^[1-9][0-9]{1,14}$/;

/**
 * The stored form of a phone number: E.164 digits without `+` (GoTrue's `validatePhone`: spaces and
 * one leading `+` removed, then `^[1-9][0-9]{1,14}$`). Anything else → 400 `validation_failed`
 * "Invalid phone number format (E.164 required)".
 */
export function normalizePhone(input: string): Result<string> {
  // GoTrue strips the `+` before the spaces, so " +1 555…" fails there; stripping spaces first is
  // kinder and accepts nothing that is not a phone number.
  const withoutSpaces = input.replaceAll(" ", "");
  const digits = withoutSpaces.startsWith("+") ? withoutSpaces.slice(1) : withoutSpaces;
  if (!E164_DIGITS.test(digits)) {
    return err(failures.phoneInvalid());
  }
  return ok(digits);
}
