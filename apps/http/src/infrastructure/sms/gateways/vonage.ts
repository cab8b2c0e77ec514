import { vonageSms } from "@authsvc/adapters";
import * as k from "../../../config/kinds.js";
import { baseUrl, credential, defineGateway } from "./gateway.js";

const id = "vonage";

export const vonage = defineGateway(
  id,
  {
    apiKey: credential(id, "SMS_VONAGE_API_KEY", k.secret(), "Vonage API key."),
    apiSecret: credential(id, "SMS_VONAGE_API_SECRET", k.secret(), "Vonage API secret."),
    from: credential(id, "SMS_VONAGE_FROM", k.text, "Vonage sender number or name."),
    baseUrl: baseUrl(id),
  },
  vonageSms,
);
