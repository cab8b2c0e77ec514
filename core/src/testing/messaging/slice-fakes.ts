import { NOTIFICATION_KINDS, type NotificationKind } from "../../messaging/index.js";
import { sliceFakes } from "../slice-fakes.js";
import { fakeDeliveries, fakeMailer, fakeSms } from "./fake-senders.js";

/** Messaging's settings (every notification off) and ports: the mailer, the SMS sender and the queue of mail sent after the answer. */
export const messagingFakes = sliceFakes({
  settings: {
    notifications: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, false])) as Record<
      NotificationKind,
      boolean
    >,
  },
  deps: () => ({ mailer: fakeMailer(), sms: fakeSms(), deliveries: fakeDeliveries() }),
});
