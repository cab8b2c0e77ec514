import { sliceFakes } from "../slice-fakes.js";
import { fakeDeliveries, fakeMailer, fakeSms } from "./fake-senders.js";

/** Messaging's ports: the mailer, the SMS sender and the queue of mail sent after the answer. */
export const messagingFakes = sliceFakes({
  settings: {},
  deps: () => ({ mailer: fakeMailer(), sms: fakeSms(), deliveries: fakeDeliveries() }),
});
