import { describeMailApi } from "../testing/mail-api/mail-api-suite.js";
import { startSendgridFake } from "../testing/mail-api/providers.js";
import { sendgridApi } from "./sendgrid-api.js";

const apiKey = "SG.test-key.0123456789abcdef";

describeMailApi({
  name: "sendgrid",
  start: () => startSendgridFake(apiKey),
  provider: ({ baseUrl, wrongSecret }) => sendgridApi({ apiKey: wrongSecret ?? apiKey, baseUrl }),
  secret: apiKey,
  messages: {
    wrongSecret: "The provided authorization grant is invalid, expired, or revoked",
    refused: "The from address does not match a verified Sender Identity.",
  },
});
