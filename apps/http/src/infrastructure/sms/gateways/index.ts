import type { SmsGateway } from "./gateway.js";
import { messagebird } from "./messagebird.js";
import { textlocal } from "./textlocal.js";
import { twilio } from "./twilio.js";
import { vonage } from "./vonage.js";

export type { SmsGateway } from "./gateway.js";

/** The gateways `SMS_PROVIDER` may name, in the order the docs list them. A new gateway is one entry here. */
export const SMS_GATEWAYS: readonly SmsGateway[] = [twilio, messagebird, textlocal, vonage];
