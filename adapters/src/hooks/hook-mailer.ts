import type { HookDispatcher } from "@authsvc/core/hooks";
import type { Mail, Mailer, MailKind } from "@authsvc/core/messaging";

/** `email_action_type` of each mail kind (reference `mailer.go`). */
const ACTION_TYPES: Readonly<Record<MailKind, string>> = {
  confirmation: "signup",
  invite: "invite",
  recovery: "recovery",
  magic_link: "magiclink",
  email_change: "email_change",
  reauthentication: "reauthentication",
  // The notifications' action types are their template names, as the reference's (`mail.go`).
  password_changed_notification: "password_changed_notification",
  email_changed_notification: "email_changed_notification",
  phone_changed_notification: "phone_changed_notification",
  identity_linked_notification: "identity_linked_notification",
  identity_unlinked_notification: "identity_unlinked_notification",
  mfa_factor_enrolled_notification: "mfa_factor_enrolled_notification",
  mfa_factor_unenrolled_notification: "mfa_factor_unenrolled_notification",
};

export interface HookMailerOptions {
  readonly hooks: HookDispatcher;
  /** SITE_URL, sent as `email_data.site_url`. */
  readonly siteUrl: string;
}

/**
 * A `Mailer` that hands every mail to the send-email hook instead of SMTP (`HOOK_SEND_EMAIL_*`).
 * It runs where mail is sent, after the transaction has committed, so an HTTP hook never holds one.
 * The hook gets the user, the code and the link's token (`token_hash`, to build its own
 * `/verify` link), `redirect_to` and the action type. A secure email change sends two mails, so the
 * hook is called twice: for the current address with `token` and `token_hash_new`, for the new one
 * with `token_new` and `token_hash` (the reference's pairing, in one call there). A refusal rejects
 * the send with the hook's failure, which the client gets where the mail is sent before answering.
 */
export function hookMailer(options: HookMailerOptions): Mailer {
  return {
    async send(mail: Mail) {
      if (mail.user === undefined) throw new Error(`send-email hook: a ${mail.kind} mail without its user`);
      const token = mail.token ?? "";
      const tokenHash = mail.tokenHash ?? "";
      // A change's second mail (to the new address while the current one is mailed too).
      const toNewOfTwo =
        mail.kind === "email_change" &&
        mail.newEmail !== undefined &&
        mail.user.email !== null &&
        mail.to.toLowerCase() === mail.newEmail.toLowerCase() &&
        mail.email?.toLowerCase() !== mail.to.toLowerCase();
      const toCurrentOfTwo =
        mail.kind === "email_change" &&
        mail.newEmail !== undefined &&
        mail.to.toLowerCase() !== mail.newEmail.toLowerCase();
      const answer = await options.hooks.run("send_email", {
        user: mail.user,
        email_data: {
          token: toNewOfTwo ? "" : token,
          token_hash: toCurrentOfTwo ? "" : tokenHash,
          redirect_to: mail.redirectTo ?? "",
          email_action_type: ACTION_TYPES[mail.kind],
          site_url: options.siteUrl,
          token_new: toNewOfTwo ? token : "",
          token_hash_new: toCurrentOfTwo ? tokenHash : "",
          old_email: mail.oldEmail ?? "",
          old_phone: mail.oldPhone ?? "",
          provider: mail.provider ?? "",
          factor_type: mail.factorType ?? "",
        },
      });
      if (!answer.ok) throw answer.error;
    },
  };
}
