import { describeSmsGateway } from "../testing/sms/sms-sender-suite.js";
import { startTextlocalFake } from "../testing/sms/textlocal.js";
import { textlocalSms } from "./textlocal.js";

const apiKey = "textlocal-api-key-secret";

describeSmsGateway({
  gateway: "textlocal",
  start: () => startTextlocalFake({ apiKey }),
  sender: ({ baseUrl, wrongSecret, timeoutMs }) =>
    textlocalSms({ apiKey: wrongSecret ?? apiKey, sender: "AuthSvc", baseUrl, timeoutMs }),
  secret: apiKey,
  received: (to) => ({ to, from: "AuthSvc" }),
  messages: {
    wrongSecret: "Invalid login details (code 3)",
    invalidRecipient: "No valid numbers specified (code 51)",
    rejected: "Insufficient credits (code 7)",
    serverError: "HTTP 500",
  },
});
