import { web3Grant } from "@authsvc/core/web3";
import * as v from "valibot";
import { parseBody, text } from "../../http/body.js";
import { httpGrant } from "../../http/grants/http-grant.js";
import { grantFailure } from "../../http/grants/oauth-errors.js";
import { logLogin } from "../../http/login-log.js";
import { sessionJson } from "../../http/presenters/session-json.js";

export const Web3Grant = v.object({ chain: text, message: text, signature: text });

/**
 * `grant_type=web3`: a wallet's signature of a sign-in message. A refusal of a well-formed message
 * (signature, site, time, replay) is an OAuth `invalid_grant` (400), as the reference answers it
 * (oauth-errors.ts).
 */
export const web3HttpGrant = httpGrant(web3Grant, {
  "/token": {
    body: Web3Grant,
    handle: async (c, json, run) => {
      // The reference says "Web3 provider is disabled" before it reads the body: with both chains off,
      // a malformed body gets that answer too (the use case checks it first, touching nothing).
      const body = v.safeParse(Web3Grant, json);
      const { chain = "", message = "", signature = "" } = body.success ? body.output : {};
      const result = await run({ chain, message, signature });
      if (!body.success && (result.ok || result.error.failure !== "web3Disabled")) parseBody(Web3Grant, json);
      if (!result.ok) return grantFailure(c, "/token", result.error);
      logLogin(c, { method: "web3", userId: result.value.user.id, provider: "web3" });
      return c.json(sessionJson(result.value));
    },
  },
});
