import type { User } from "../../accounts/index.js";

/**
 * The account-change notifications (reference 2.180–2.181): mail telling the user something about
 * their account changed, carrying no link and no code. Named as the reference names their templates.
 */
export type NotificationKind =
  | "password_changed_notification"
  | "email_changed_notification"
  | "phone_changed_notification"
  | "identity_linked_notification"
  | "identity_unlinked_notification"
  | "mfa_factor_enrolled_notification"
  | "mfa_factor_unenrolled_notification";

/** The kinds of mail authsvc sends (spec, "Events"), and the notifications. */
export type MailKind =
  | "confirmation"
  | "invite"
  | "recovery"
  | "magic_link"
  | "email_change"
  | "reauthentication"
  | NotificationKind;

/** One message to one address; the adapter renders it with its templates. */
export interface Mail {
  readonly kind: MailKind;
  readonly to: string;
  /** The user's (current) address: the template variable `Email`. */
  readonly email?: string;
  /** The link the user follows (absent for the reauthentication nonce). */
  readonly confirmationUrl?: string;
  /** The code the user may type instead of following the link. */
  readonly token?: string;
  /** For email change: the address being changed to. */
  readonly newEmail?: string;
  /** The user the mail is for: a send-email hook receives it. */
  readonly user?: User;
  /** The link's token, as `/verify` takes it in `token_hash` (a send-email hook builds its own link). */
  readonly tokenHash?: string;
  /** Where the link leads after `/verify`. */
  readonly redirectTo?: string;
  /** Email changed: the address the account had before (the mail goes there). */
  readonly oldEmail?: string;
  /** Phone changed: the new number and the one before, as stored (digits only). */
  readonly phone?: string;
  readonly oldPhone?: string;
  /** Identity linked or unlinked: its provider (`google`, `phone`, …). */
  readonly provider?: string;
  /** MFA factor enrolled or removed: its type (`totp`, `phone`, `webauthn`). */
  readonly factorType?: string;
  /**
   * The languages the request asked for, strongest first (its `locale` parameter, then
   * `Accept-Language`): a mailer with localized templates uses the first it has, after the user's own
   * (`user_metadata.locale`).
   */
  readonly locales?: readonly string[];
}

/**
 * Sends domain mail.
 *
 * `send` resolves once the message has been accepted for delivery and rejects when it could not be
 * (server down, message refused); a caller must then treat the one-time token it carried as unsent.
 */
export interface Mailer {
  /** Renders and sends `mail`; rejects (with `email_send_failed`) when it was not accepted. */
  send(mail: Mail): Promise<void>;
}
