import type { User } from "../accounts/index.js";

/**
 * What each hook receives, besides the `metadata` ({uuid, time, name}) the dispatcher adds. Field
 * names are the reference's JSON names (`v0hooks`); a `user` is sent as the API's user body.
 */
export interface HookInputs {
  readonly custom_access_token: {
    readonly user_id: string;
    readonly claims: Readonly<Record<string, unknown>>;
    /** The `amr` method of the grant: `password`, `otp`, `token_refresh`, … */
    readonly authentication_method: string;
  };
  readonly send_email: {
    readonly user: User;
    readonly email_data: SendEmailData;
  };
  readonly send_sms: {
    readonly user: User;
    readonly sms: { readonly otp: string; readonly phone: string; readonly sms_type?: string };
  };
  readonly before_user_created: { readonly user: User };
  /** The user as committed, with its identities. */
  readonly after_user_created: { readonly user: User };
  readonly password_verification_attempt: { readonly user_id: string; readonly valid: boolean };
  readonly mfa_verification_attempt: {
    readonly user_id: string;
    readonly factor_id: string;
    readonly factor_type: string;
    readonly valid: boolean;
  };
}

/** `email_data` of the send-email hook (reference `mailer.EmailData`). */
export interface SendEmailData {
  readonly token: string;
  readonly token_hash: string;
  readonly redirect_to: string;
  /** signup, recovery, invite, magiclink, email_change, reauthentication, or a notification's kind. */
  readonly email_action_type: string;
  readonly site_url: string;
  readonly token_new: string;
  readonly token_hash_new: string;
  /** The notifications' details (empty otherwise): email changed, phone changed, identity (un)linked, factor. */
  readonly old_email: string;
  readonly old_phone: string;
  readonly provider: string;
  readonly factor_type: string;
}
