import { web3Grant } from "@authsvc/core";
import * as v from "valibot";
import { parseBody, text, unwrap } from "../../http/body.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { httpGrant } from "./http-grant.js";

const Web3Grant = v.object({ chain: text, message: text, signature: text });

/** `grant_type=web3`: a wallet's signature of a sign-in message. */
export const web3HttpGrant = httpGrant(web3Grant, async (c, json, run) => {
  const { chain = "", message = "", signature = "" } = parseBody(Web3Grant, json);
  return c.json(sessionJson(unwrap(await run({ chain, message, signature }))));
});
