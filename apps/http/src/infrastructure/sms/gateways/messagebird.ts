import { messagebirdSms } from "@authsvc/adapters";
import * as k from "../../../config/kinds.js";
import { baseUrl, credential, defineGateway } from "./gateway.js";

const id = "messagebird";

export const messagebird = defineGateway(
  id,
  {
    accessKey: credential(id, "SMS_MESSAGEBIRD_ACCESS_KEY", k.secret(), "MessageBird access key."),
    originator: credential(
      id,
      "SMS_MESSAGEBIRD_ORIGINATOR",
      k.text,
      "Sender: a phone number with `+`, or a company name.",
    ),
    baseUrl: baseUrl(id),
  },
  messagebirdSms,
);
