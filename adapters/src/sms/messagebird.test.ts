import { startMessagebirdFake } from "../testing/sms/messagebird.js";
import { describeSmsGateway } from "../testing/sms/sms-sender-suite.js";
import { messagebirdSms } from "./messagebird.js";

const accessKey = "live_messagebird-access-key";

describeSmsGateway({
  gateway: "messagebird",
  start: () => startMessagebirdFake({ accessKey }),
  sender: ({ baseUrl, wrongSecret, timeoutMs }) =>
    messagebirdSms({ accessKey: wrongSecret ?? accessKey, originator: "AuthSvc", baseUrl, timeoutMs }),
  secret: accessKey,
  received: (to) => ({ to, from: "AuthSvc" }),
  messages: {
    wrongSecret: "Request not allowed (incorrect access_key) (code 2)",
    invalidRecipient: "no (correct) recipients found (code 9)",
    rejected: "Not enough balance (code 25)",
    serverError: "Internal error (code 99)",
  },
});
