import type { User } from "../../accounts/index.js";
import { AuthError, type DeliveryQueue } from "../../kernel/index.js";
import type { MessagingDeps } from "../deps.js";
import type { Mail, NotificationKind } from "../ports/mailer.js";
import type { MessagingSliceSettings } from "../settings.js";
import { takeEmailQuota } from "./send-email-token.js";

/** Every notification kind, in the reference's order. */
export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  "password_changed_notification",
  "email_changed_notification",
  "phone_changed_notification",
  "identity_linked_notification",
  "identity_unlinked_notification",
  "mfa_factor_enrolled_notification",
  "mfa_factor_unenrolled_notification",
];

/** A committed change to an account, as its notification tells it (the reference's template variables). */
export type AccountChange =
  | { readonly kind: "password_changed_notification" }
  /** Mailed to `oldEmail`, the address the account no longer has. */
  | { readonly kind: "email_changed_notification"; readonly oldEmail: string }
  /** `oldPhone` may be "" (a first number); numbers as stored (digits only), as the reference's. */
  | { readonly kind: "phone_changed_notification"; readonly oldPhone: string }
  | { readonly kind: "identity_linked_notification"; readonly provider: string }
  /**
   * Mailed to `to`, the address the account had before the unlinking: removing an identity may have
   * replaced the user's address with another identity's.
   */
  | { readonly kind: "identity_unlinked_notification"; readonly provider: string; readonly to: string }
  | { readonly kind: "mfa_factor_enrolled_notification"; readonly factorType: string }
  | { readonly kind: "mfa_factor_unenrolled_notification"; readonly factorType: string };

export type NotifyDeps = Pick<MessagingDeps, "store" | "mailer"> & {
  readonly settings: MessagingDeps["settings"] & MessagingSliceSettings;
  readonly deliveries: DeliveryQueue;
};

/**
 * Mails the notification of `change` to `user`, when its switch is on and there is an address to mail:
 * called once the change has committed, never inside its transaction. The mail leaves on the delivery
 * queue, after the answer, through the same mailer as every mail (the send-email hook when it is on),
 * and counts against the hourly email cap (`RATE_LIMIT_EMAIL_SENT`, as the reference's notifications
 * do). A notification is news of what already happened: the cap's refusal or a failed send is logged
 * and counted by the queue and never fails the change nor the request (the reference logs it too).
 */
export async function notifyAccountChange(
  deps: NotifyDeps,
  user: User,
  change: AccountChange,
  now: Date,
): Promise<void> {
  if (!deps.settings.notifications[change.kind]) return;
  const to =
    change.kind === "email_changed_notification"
      ? change.oldEmail
      : change.kind === "identity_unlinked_notification"
        ? change.to
        : (user.email ?? "");
  if (to === "") return;
  const mail: Mail = {
    kind: change.kind,
    to,
    email: change.kind === "identity_unlinked_notification" ? change.to : (user.email ?? ""),
    user,
    ...(change.kind === "email_changed_notification" ? { oldEmail: change.oldEmail } : {}),
    ...(change.kind === "phone_changed_notification"
      ? { phone: user.phone ?? "", oldPhone: change.oldPhone }
      : {}),
    ...("provider" in change ? { provider: change.provider } : {}),
    ...("factorType" in change ? { factorType: change.factorType } : {}),
  };
  await deps.deliveries.enqueue(async () => {
    const refused = deps.settings.signup.mailerAutoconfirm ? null : await takeEmailQuota(deps, now);
    if (refused !== null) return { code: refused.code, message: refused.message };
    try {
      await deps.mailer.send(mail);
      return null;
    } catch (error) {
      if (error instanceof AuthError) return { code: error.code, message: error.message };
      throw error;
    }
  });
}
