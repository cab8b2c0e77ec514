import { twilioSms } from "@authsvc/adapters";
import * as k from "../../../config/kinds.js";
import { baseUrl, credential, defineGateway, option } from "./gateway.js";

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
    contentSid: option(
      "SMS_TWILIO_CONTENT_SID",
      k.text,
      "Twilio Content API template (`HX…`) for codes sent by WhatsApp, its variable `{{1}}` being the code; unset: WhatsApp gets the text's body (free-form, delivered only inside a conversation the user opened).",
    ),
    baseUrl: baseUrl(id),
  },
  twilioSms,
);
