/** The `type` of `POST /verify` and `GET /verify`. */
export type VerifyType =
  | "signup"
  | "invite"
  | "magiclink"
  | "recovery"
  | "email_change"
  | "email"
  | "sms"
  | "phone_change";
