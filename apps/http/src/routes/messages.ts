import { type AuthDeps, recoverPassword, resend, sendMagicLink, sendSmsOtp } from "@authsvc/core";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env.js";
import { optionalBoolean, optionalMetadata, optionalString, unwrap } from "../body-fields.js";
import { httpError } from "../errors.js";
import { readJsonObject } from "../middleware/json-body.js";

const RESEND_TYPES = ["signup", "sms", "email_change", "phone_change"] as const;

/** `redirect_to` from the query (what the official client sends) or the body. */
const redirectOf = (c: Context<AppEnv>, body: Record<string, unknown>) =>
  c.req.query("redirect_to") ?? optionalString(body, "redirect_to");

const defined = <T extends Record<string, unknown>>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;

/** `/otp`, `/magiclink`, `/recover`, `/resend`: send a link or a code; never reveal whether a user exists. */
export const messageRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>()
    .post("/otp", async (c) => {
      const body = await readJsonObject(c);
      const email = optionalString(body, "email") || undefined;
      const phone = optionalString(body, "phone") || undefined;
      const common = {
        data: optionalMetadata(body, "data"),
        createUser: optionalBoolean(body, "create_user"),
      };
      if (email && phone)
        throw httpError(400, "validation_failed", "Only an email address or phone number should be provided");
      if (phone) {
        const sent = unwrap(await sendSmsOtp(deps, defined({ phone, ...common })));
        return c.json(sent.messageId ? { message_id: sent.messageId } : {});
      }
      if (!email) throw httpError(400, "validation_failed", "An email address or phone number is required");
      unwrap(await sendMagicLink(deps, defined({ email, ...common, redirectTo: redirectOf(c, body) })));
      return c.json({});
    })
    .post("/magiclink", async (c) => {
      const body = await readJsonObject(c);
      const email = optionalString(body, "email");
      if (!email) throw httpError(422, "validation_failed", "Password recovery requires an email");
      const data = optionalMetadata(body, "data");
      unwrap(await sendMagicLink(deps, defined({ email, data, redirectTo: redirectOf(c, body) })));
      return c.json({});
    })
    .post("/recover", async (c) => {
      const body = await readJsonObject(c);
      const email = optionalString(body, "email") ?? "";
      unwrap(await recoverPassword(deps, defined({ email, redirectTo: redirectOf(c, body) })));
      return c.json({});
    })
    .post("/resend", async (c) => {
      const body = await readJsonObject(c);
      const type = optionalString(body, "type");
      if (!RESEND_TYPES.includes(type as (typeof RESEND_TYPES)[number])) {
        throw httpError(400, "validation_failed", `Missing one of these types: ${RESEND_TYPES.join(", ")}`);
      }
      const sent = unwrap(
        await resend(
          deps,
          defined({
            type: type as (typeof RESEND_TYPES)[number],
            email: optionalString(body, "email") || undefined,
            phone: optionalString(body, "phone") || undefined,
            redirectTo: redirectOf(c, body),
          }),
        ),
      );
      return c.json(sent.messageId ? { message_id: sent.messageId } : {});
    });
