import { passwordGrant } from "@authsvc/core/sessions";
import * as v from "valibot";
import { filledText, parseBody, text } from "../../http/body.js";
import { httpGrant } from "../../http/grants/http-grant.js";
import { grantFailure } from "../../http/grants/oauth-errors.js";
import { sessionJson } from "../../http/presenters/session-json.js";

const PasswordGrant = v.object({ email: filledText, phone: filledText, password: text });

/** `grant_type=password`: an email or a phone and a password. */
export const passwordHttpGrant = httpGrant(passwordGrant, {
  "/token": {
    body: PasswordGrant,
    handle: async (c, json, run) => {
      const { password = "", ...address } = parseBody(PasswordGrant, json);
      const signedIn = await run({ ...address, password });
      if (!signedIn.ok) return grantFailure(c, "/token", signedIn.error);
      const { weakPassword, ...tokens } = signedIn.value;
      // As the reference: a correct but weak or leaked password signs in, and the answer says why.
      return c.json({ ...sessionJson(tokens), ...(weakPassword ? { weak_password: weakPassword } : {}) });
    },
  },
});
