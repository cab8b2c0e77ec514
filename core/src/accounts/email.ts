import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

const MAX_EMAIL_LENGTH = 255;

// badoux/checkmail's ValidateFormat, which GoTrue uses: ASCII only, a dot-less domain allowed
// (user@localhost), labels of 1–63 characters not starting or ending with a hyphen.
const EMAIL_FORMAT =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * The stored form of an email address: trimmed and lowercased, after GoTrue's checks (`validateEmail`
 * in internal/api/mail.go) with its messages — empty → "An email address is required", over 255
 * characters → "An email address is too long", bad shape → "Unable to validate email address:
 * invalid format"; all 400 `validation_failed`.
 */
export function normalizeEmail(input: string): Result<string> {
  // GoTrue does not trim; we do, so a pasted trailing space is not an error.
  const email = input.trim();
  if (email === "") return err(failures.emailRequired());
  if (email.length > MAX_EMAIL_LENGTH) return err(failures.emailTooLong());
  if (!EMAIL_FORMAT.test(email)) return err(failures.emailInvalid());
  return ok(email.toLowerCase());
}
