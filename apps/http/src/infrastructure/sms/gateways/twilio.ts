import { twilioSms } from "@authsvc/adapters";
import * as k from "../../../config/kinds.js";
import { baseUrl, credential, defineGateway } from "./gateway.js";

const id = "twilio";

export const twilio = defineGateway(
  id,
  {
    accountSid: credential(id, "SMS_TWILIO_ACCOUNT_SID", k.text, "Twilio account SID."),
    authToken: credential(id, "SMS_TWILIO_AUTH_TOKEN", k.secret(), "Twilio auth token."),
    messageServiceSid: credential(
      id,
      "SMS_TWILIO_MESSAGE_SERVICE_SID",
      k.text,
      "Twilio message-service SID, or the sender phone number.",
    ),
    baseUrl: baseUrl(id),
  },
  twilioSms,
);
