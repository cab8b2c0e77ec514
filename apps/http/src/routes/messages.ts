import { failures, recoverPassword, resend, sendMagicLink, sendSmsOtp } from "@authsvc/core";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, filledText, flag, metadata, parseBody, text, unwrap } from "../http/body.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { pkceFields, pkceOf } from "../http/pkce.js";

export const OtpBody = v.object({
  email: filledText,
  phone: filledText,
  data: metadata,
  create_user: flag,
  redirect_to: text,
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

/** `redirect_to` from the query (what the official client sends), else from the body. */
const redirectOf = (c: Context<AppEnv>, body: { redirect_to?: string }) =>
  defined({ redirectTo: c.req.query("redirect_to") ?? body.redirect_to });

/** `/otp`, `/magiclink`, `/recover`, `/resend`: send a link or a code; never reveal whether a user exists. */
export const messageRoutes = () =>
  new Hono<AppEnv>()
    .post("/otp", async (c) => {
      const body = parseBody(OtpBody, await readJsonObject(c));
      const { email, phone } = body;
      const common = defined({ data: body.data, createUser: body.create_user });
      if (email && phone) throw failures.otpEmailOrPhone();
      if (phone) {
        const sent = unwrap(await sendSmsOtp(c.get("deps"), { phone, ...common }));
        return c.json(sent.messageId ? { message_id: sent.messageId } : {});
      }
      if (!email) throw failures.otpEmailOrPhoneMissing();
      unwrap(
        await sendMagicLink(c.get("deps"), { email, ...common, ...pkceOf(body), ...redirectOf(c, body) }),
      );
      return c.json({});
    })
    .post("/magiclink", async (c) => {
      const body = parseBody(MagicLinkBody, await readJsonObject(c));
      if (!body.email) throw failures.magicLinkEmailMissing();
      const data = defined({ data: body.data });
      const input = { email: body.email, ...data, ...pkceOf(body), ...redirectOf(c, body) };
      unwrap(await sendMagicLink(c.get("deps"), input));
      return c.json({});
    })
    .post("/recover", async (c) => {
      const body = parseBody(RecoverBody, await readJsonObject(c));
      const input = { email: body.email ?? "", ...pkceOf(body), ...redirectOf(c, body) };
      unwrap(await recoverPassword(c.get("deps"), input));
      return c.json({});
    })
    .post("/resend", async (c) => {
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
    });
