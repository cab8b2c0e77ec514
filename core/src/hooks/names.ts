/**
 * The auth hooks (docs/hooks.md): extension points where the operator's code, a Postgres function or
 * an HTTP endpoint, decides or does something in place of authsvc.
 */
export const HOOK_NAMES = [
  "custom_access_token",
  "send_email",
  "send_sms",
  "before_user_created",
  "after_user_created",
  "password_verification_attempt",
  "mfa_verification_attempt",
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** The name a hook's payload carries in `metadata.name` (reference `v0hooks.Name`). */
export const HOOK_PAYLOAD_NAMES: Readonly<Record<HookName, string>> = {
  custom_access_token: "customize-access-token",
  send_email: "send-email",
  send_sms: "send-sms",
  before_user_created: "before-user-created",
  after_user_created: "after-user-created",
  password_verification_attempt: "password-verification",
  mfa_verification_attempt: "mfa-verification",
};

/** The decision with which a verification-attempt hook refuses the attempt (and those after it). */
export const HOOK_REJECTION = "reject";
