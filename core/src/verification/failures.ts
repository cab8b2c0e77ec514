import type { FailureCatalogue } from "../kernel/index.js";

/** The verification slice's failures (composed with the others' in core/src/failures.ts). */
export const verificationFailures = {
  // One-time tokens and verification
  otpExpired: ["otp_expired", "Token has expired or is invalid"],
  smsChannelUnsupported: ["validation_failed", "Invalid channel, only 'sms' is supported"],
  otpChannelWithEmail: ["validation_failed", "Channel should only be specified with Phone OTP"],
  // The reference's words: WhatsApp goes through Twilio (or a send-SMS hook).
  messageChannelInvalid: [
    "validation_failed",
    "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.",
  ],
  verifyTypeUnsupported: ["validation_failed", "Unsupported verification type"],
  verifyTokenOrHash: ["validation_failed", "Only the token or the token hash should be provided"],
  verifyTokenMissing: ["validation_failed", "Verify requires a token or a token hash"],
  verifyHashWithAddress: ["validation_failed", "Only the token_hash and type should be provided"],
  verifyTypeRequired: [
    "validation_failed",
    (allowed: readonly string[]) => `Verify requires a verification type of ${allowed.join(", ")}`,
  ],
  verifyLinkTokenMissing: ["validation_failed", "Verify requires a token"],
  otpEmailOrPhone: ["validation_failed", "Only an email address or phone number should be provided"],
  otpEmailOrPhoneMissing: ["validation_failed", "An email address or phone number is required"],
  magicLinkEmailMissing: ["validation_failed", "Password recovery requires an email"],
  resendTypeMissing: [
    "validation_failed",
    "Missing one of these types: signup, email_change, sms, phone_change",
  ],
  resendEmailMissing: ["validation_failed", "Type provided requires an email address"],
  resendPhoneMissing: ["validation_failed", "Type provided requires a phone number"],
  reauthenticationNeeded: ["reauthentication_needed", "Password update requires reauthentication"],
  reauthenticationNotValid: [
    "reauthentication_not_valid",
    "Reauthentication failed: nonce is invalid or has expired",
  ],
  reauthenticationEmailNotConfirmed: ["email_not_confirmed", "Please verify your email first."],
  reauthenticationPhoneNotConfirmed: ["phone_not_confirmed", "Please verify your phone first."],
  reauthenticationNoAddress: [
    "validation_failed",
    "Reauthentication requires the user to have an email or a phone number",
  ],
  anonymousPasswordUpdate: [
    "validation_failed",
    "Updating password of an anonymous user without an email or phone is not allowed",
  ],
} as const satisfies FailureCatalogue;
