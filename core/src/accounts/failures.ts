import type { FailureCatalogue } from "../kernel/index.js";

/** The accounts slice's failures (composed with the others' in core/src/failures.ts). */
export const accountsFailures = {
  // Addresses and passwords
  emailRequired: ["validation_failed", "An email address is required"],
  emailTooLong: ["validation_failed", "An email address is too long"],
  emailInvalid: ["validation_failed", "Unable to validate email address: invalid format"],
  phoneInvalid: ["validation_failed", "Invalid phone number format (E.164 required)"],
  passwordTooLong: ["validation_failed", (max: number) => `Password cannot be longer than ${max} characters`],
  weakPassword: ["weak_password", (sentences: readonly string[]) => sentences.join(" ")],
  samePassword: ["same_password", "New password should be different from the old password."],
  emailExists: ["email_exists", "A user with this email address has already been registered"],
  phoneExists: ["phone_exists", "Phone number already registered by another user"],
  userNotFound: ["user_not_found", "User not found"],
  passwordCheckUnavailable: [
    "unexpected_failure",
    "Unable to perform password strength check with HaveIBeenPwned.org.",
  ],
} as const satisfies FailureCatalogue;
