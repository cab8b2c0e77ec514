export {
  type ApiFailure,
  type ApiMail,
  type ApiRequest,
  type MailApiFake,
  startMailApiFake,
} from "./fake-api.js";
export { describeMailApi, type MailApiCase, TEST_SUBJECTS } from "./mail-api-suite.js";
export {
  REFUSED_RECIPIENT,
  startMailgunFake,
  startPostmarkFake,
  startResendFake,
  startSendgridFake,
} from "./providers.js";
export { type SesFakeCredentials, startSesFake } from "./ses.js";
