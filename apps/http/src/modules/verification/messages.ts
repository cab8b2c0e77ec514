import { failures } from "@authsvc/core";
import { sendMagicLink, sendSmsOtp } from "@authsvc/core/passwordless";
import { recoverPassword } from "@authsvc/core/recovery";
import { resend } from "@authsvc/core/verification";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { defined, filledText, flag, metadata, parseBody, text, unwrap } from "../../http/body.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { REDIRECT_QUERY, ref } from "../../http/operation.js";
import { pkceFields, pkceOf } from "../../http/pkce.js";
import { endpoint, type ModuleEndpoint } from "../module.js";

export const OtpBody = v.object({
  email: filledText,
  phone: filledText,
  data: metadata,
  create_user: flag,
  redirect_to: text,
  channel: text,
  ...pkceFields,
});
export const MagicLinkBody = v.object({ email: text, data: metadata, redirect_to: text, ...pkceFields });
export const RecoverBody = v.object({ email: text, redirect_to: text, ...pkceFields });
export const ResendBody = v.object({
  type: text,
  email: filledText,
  phone: filledText,
  redirect_to: text,
  ...pkceFields,
});

// Each answers alike whether or not the address has a user; a refused send (limits) is 429.
const SENT = { description: "Sent, or nothing to send: the answer does not tell which." };

/** `redirect_to` from the query (what the official client sends), else from the body. */
const redirectOf = (c: Context<AppEnv>, body: { redirect_to?: string }) =>
  defined({ redirectTo: c.req.query("redirect_to") ?? body.redirect_to });

/** `/otp`, `/magiclink`, `/recover`, `/resend`: send a link or a code; never reveal whether a user exists. */
export const messageEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/otp",
      summary: "Sends a one-time code or link by mail (`email`) or SMS (`phone`); may create the user.",
      hooks: true,
      access: "public",
      limited: true,
      query: [REDIRECT_QUERY],
      body: {
        schema: OtpBody,
        fields: {
          create_user: { description: "Whether an unknown address gets a new user (default true)." },
          data: { description: "The new user's `user_metadata`." },
          channel: {
            enum: ["sms", "whatsapp"],
            description:
              "How a phone's code is sent (default `sms`); `whatsapp` through Twilio or a send-SMS hook.",
          },
        },
      },
      responses: { 200: { ...SENT, body: ref("MessageId") } },
      errors: [422],
    },
    () => [
      async (c) => {
        const body = parseBody(OtpBody, await readJsonObject(c));
        const { email, phone } = body;
        const common = defined({ data: body.data, createUser: body.create_user });
        if (email && phone) throw failures.otpEmailOrPhone();
        if (phone) {
          const channel = defined({ channel: body.channel });
          const sent = unwrap(await sendSmsOtp(c.get("deps"), { phone, ...common, ...channel }));
          return c.json(sent.messageId ? { message_id: sent.messageId } : {});
        }
        if (!email) throw failures.otpEmailOrPhoneMissing();
        if (body.channel) throw failures.otpChannelWithEmail();
        unwrap(
          await sendMagicLink(c.get("deps"), { email, ...common, ...pkceOf(body), ...redirectOf(c, body) }),
        );
        return c.json({});
      },
    ],
    { limit: { name: "otp", per5Min: "otp" }, captcha: true, pacing: "message" },
  ),
  endpoint(
    {
      method: "post",
      path: "/magiclink",
      summary: "Mails a sign-in link.",
      hooks: true,
      access: "public",
      limited: true,
      query: [REDIRECT_QUERY],
      body: { schema: MagicLinkBody },
      responses: { 200: { ...SENT, body: ref("Empty") } },
      errors: [422],
    },
    () => [
      async (c) => {
        const body = parseBody(MagicLinkBody, await readJsonObject(c));
        if (!body.email) throw failures.magicLinkEmailMissing();
        const data = defined({ data: body.data });
        const input = { email: body.email, ...data, ...pkceOf(body), ...redirectOf(c, body) };
        unwrap(await sendMagicLink(c.get("deps"), input));
        return c.json({});
      },
    ],
    { limit: { name: "magiclink", per5Min: "otp" }, captcha: true, pacing: "message" },
  ),
  endpoint(
    {
      method: "post",
      path: "/recover",
      summary: "Mails a password-recovery link.",
      hooks: true,
      access: "public",
      limited: true,
      query: [REDIRECT_QUERY],
      body: { schema: RecoverBody },
      responses: { 200: { ...SENT, body: ref("Empty") } },
      errors: [422],
    },
    () => [
      async (c) => {
        const body = parseBody(RecoverBody, await readJsonObject(c));
        const input = { email: body.email ?? "", ...pkceOf(body), ...redirectOf(c, body) };
        unwrap(await recoverPassword(c.get("deps"), input));
        return c.json({});
      },
    ],
    { limit: { name: "recover", per5Min: "otp" }, captcha: true, pacing: "message" },
  ),
  endpoint(
    {
      method: "post",
      path: "/resend",
      summary: "Sends again the code or link of a sign-up, email change, SMS or phone change.",
      hooks: true,
      access: "public",
      limited: true,
      query: [REDIRECT_QUERY],
      body: {
        schema: ResendBody,
        fields: {
          type: { enum: ["signup", "email_change", "sms", "phone_change"], description: "Required." },
        },
      },
      responses: { 200: { ...SENT, body: ref("MessageId") } },
      errors: [422],
    },
    () => [
      async (c) => {
        const { type, email, phone, ...body } = parseBody(ResendBody, await readJsonObject(c));
        // The use case refuses a missing or unknown type with the reference's message.
        const input = {
          type: type ?? "",
          ...defined({ email, phone }),
          ...pkceOf(body),
          ...redirectOf(c, body),
        };
        const sent = unwrap(await resend(c.get("deps"), input));
        return c.json(sent.messageId ? { message_id: sent.messageId } : {});
      },
    ],
    { limit: { name: "resend", per5Min: "otp" }, captcha: true, pacing: "message" },
  ),
];
