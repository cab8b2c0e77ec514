export type { FailureKind, ReceivedSms, SmsGatewayFake } from "./fake-server.js";
export { type MessagebirdFakeCredentials, startMessagebirdFake } from "./messagebird.js";
export { describeSmsGateway, type SmsGatewayCase, smsFailure } from "./sms-sender-suite.js";
export { startTextlocalFake, type TextlocalFakeCredentials } from "./textlocal.js";
export { startTwilioFake, type TwilioFakeCredentials } from "./twilio.js";
export { startVonageFake, type VonageFakeCredentials } from "./vonage.js";
