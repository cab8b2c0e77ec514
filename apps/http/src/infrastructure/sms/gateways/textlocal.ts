import { textlocalSms } from "@authsvc/adapters";
import * as k from "../../../config/kinds.js";
import { baseUrl, credential, defineGateway } from "./gateway.js";

const id = "textlocal";

export const textlocal = defineGateway(
  id,
  {
    apiKey: credential(id, "SMS_TEXTLOCAL_API_KEY", k.secret(), "Textlocal API key."),
    sender: credential(id, "SMS_TEXTLOCAL_SENDER", k.text, "Textlocal sender name."),
    baseUrl: baseUrl(id),
  },
  textlocalSms,
);
