import type { AuthDeps } from "@authsvc/core";
import { type GenerateLinkType, generateLink } from "@authsvc/core/admin";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, metadata, parseBody, text, unwrap } from "../http/body.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { userJson } from "../http/presenters/user-json.js";

export const GenerateLinkBody = v.object({
  type: text,
  email: text,
  new_email: text,
  password: text,
  data: metadata,
  redirect_to: text,
  // The official client spreads its options into the body, so `redirectTo` may arrive camel-cased.
  redirectTo: text,
});

/** `POST /admin/generate_link`: the action link of a mail, without sending it. */
export const generateLinkRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>().post("/admin/generate_link", requireAdmin(deps), async (c) => {
    const body = parseBody(GenerateLinkBody, await readJsonObject(c));
    const link = unwrap(
      await generateLink(c.get("deps"), {
        actor: { role: c.get("adminRole") },
        // The use case refuses an unknown type with the reference's message.
        type: (body.type ?? "") as GenerateLinkType,
        email: body.email ?? "",
        ...defined({
          newEmail: body.new_email,
          password: body.password,
          data: body.data,
          redirectTo: c.req.query("redirect_to") ?? body.redirect_to ?? body.redirectTo,
        }),
      }),
    );
    return c.json({
      ...userJson(link.user),
      action_link: link.actionLink,
      email_otp: link.emailOtp,
      hashed_token: link.hashedToken,
      verification_type: link.verificationType,
      redirect_to: link.redirectTo,
    });
  });
