import type { NotificationKind } from "./ports/mailer.js";

/** The settings of messaging, as they appear in `AuthSettings`. */
export interface MessagingSliceSettings {
  /** Which account-change notifications are mailed (`MAILER_NOTIFICATIONS_<CHANGE>_ENABLED`, all off by default). */
  readonly notifications: Readonly<Record<NotificationKind, boolean>>;
}
