import { signUp } from "@authsvc/core/signup";
import * as v from "valibot";
import { defined, filledText, metadata, parseBody, text, unwrap } from "../../http/body.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { REDIRECT_QUERY, ref } from "../../http/operation.js";
import { pkceFields, pkceOf } from "../../http/pkce.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { userJson } from "../../http/presenters/user-json.js";
import { endpoint, type ModuleEndpoint } from "../module.js";

export const SignupBody = v.object({
  email: filledText,
  phone: filledText,
  password: text,
  data: metadata,
  channel: text,
  ...pkceFields,
});

/** `POST /signup`: email or phone with a password, or neither for an anonymous sign-in. */
export const signupEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/signup",
      summary: "Sign up with an email or a phone and a password; with neither, sign in anonymously.",
      description:
        "Under autoconfirm (or anonymously) a session; otherwise the user, with a confirmation mailed or texted. An address already confirmed answers a user like a new one, with `identities: []`.",
      hooks: true,
      access: "public",
      limited: true,
      query: [REDIRECT_QUERY],
      body: {
        schema: SignupBody,
        fields: {
          channel: {
            enum: ["sms", "whatsapp"],
            description:
              "How a phone's code is sent (default `sms`); `whatsapp` through Twilio or a send-SMS hook.",
          },
        },
      },
      responses: {
        200: {
          description: "A session, or the user waiting for confirmation.",
          body: { anyOf: [ref("Session"), ref("User")] },
        },
      },
      errors: [422],
    },
    () => [
      async (c) => {
        const { code_challenge, code_challenge_method, ...body } = parseBody(
          SignupBody,
          await readJsonObject(c),
        );
        const pkce = pkceOf({ ...defined({ code_challenge, code_challenge_method }) });
        const input = { ...body, ...pkce, ...defined({ redirectTo: c.req.query("redirect_to") }) };
        const result = unwrap(await signUp(c.get("deps"), input));
        return c.json(result.kind === "session" ? sessionJson(result.tokens) : userJson(result.user));
      },
    ],
    { limit: { name: "signup", per5Min: "otp" }, captcha: true, pacing: "signup" },
  ),
];
