/**
 * For tests only: loopback fakes of the outside services the adapters talk to (SMTP, SMS gateways,
 * external OAuth providers, captcha), the suites every adapter of a family runs against its fake, and
 * the run's test database and Redis. The package's own tests import the files directly; other packages
 * and the end-to-end tests import `@authsvc/adapters/testing`.
 */

export * from "./captcha-fake.js";
export * from "./cleanup-rows.js";
export * from "./database.js";
export * from "./hibp-range-fake.js";
export * from "./mail/mail-content.js";
export * from "./mail/mime.js";
export * from "./mail/smtp-sink.js";
export * from "./mail/template-server.js";
export * from "./mail-api/index.js";
export {
  appleCase,
  authorize,
  azureCase,
  bitbucketCase,
  describeExternalProvider,
  discordCase,
  type FailureKind as ProviderFailureKind,
  type FakePerson,
  type FakeProvider,
  facebookCase,
  failure,
  figmaCase,
  flyCase,
  githubCase,
  gitlabCase,
  googleCase,
  json,
  kakaoCase,
  keycloakCase,
  linkedinOidcCase,
  notionCase,
  PROVIDER_CASES,
  PROVIDER_FAKES,
  type ProviderCase,
  REDIRECT_URI,
  signIn,
  slackOidcCase,
  snapchatCase,
  spotifyCase,
  startCase,
  startFakeProvider,
  twitchCase,
  workosCase,
  xCase,
  zoomCase,
} from "./providers/index.js";
export * from "./redis.js";
export * from "./saml/index.js";
export {
  describeSmsGateway,
  type FailureKind as SmsFailureKind,
  type MessagebirdFakeCredentials,
  type ReceivedSms,
  type SmsGatewayCase,
  type SmsGatewayFake,
  smsFailure,
  startMessagebirdFake,
  startTextlocalFake,
  startTwilioFake,
  startVonageFake,
  type TextlocalFakeCredentials,
  type TwilioFakeCredentials,
  type VonageFakeCredentials,
} from "./sms/index.js";
export * from "./webauthn/software-authenticator.js";
