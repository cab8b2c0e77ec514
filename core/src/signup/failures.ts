import type { FailureCatalogue } from "../kernel/index.js";

/** The signup slice's failures (composed with the others' in core/src/failures.ts). */
export const signupFailures = {
  // Sign-up
  signupDisabled: ["signup_disabled", "Signups not allowed for this instance"],
  otpSignupDisabled: ["otp_disabled", "Signups not allowed for otp"],
  anonymousSignInsDisabled: ["anonymous_provider_disabled", "Anonymous sign-ins are disabled"],
  emailSignupsDisabled: ["email_provider_disabled", "Email signups are disabled"],
  phoneSignupsDisabled: ["phone_provider_disabled", "Phone signups are disabled"],
  signupEmailOrPhone: [
    "validation_failed",
    "Only an email address or phone number should be provided on signup.",
  ],
  signupPasswordRequired: ["validation_failed", "Signup requires a valid password"],
  userAlreadyRegistered: ["user_already_exists", "User already registered"],
} as const satisfies FailureCatalogue;
