import { type AuthDeps, type GenerateLinkType, generateLink } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.js";
import { optionalMetadata, optionalString, unwrap } from "../body-fields.js";
import { requireAdmin } from "../middleware/auth.js";
import { readJsonObject } from "../middleware/json-body.js";
import { userJson } from "../presenters/user-json.js";

/** `POST /admin/generate_link`: the action link of a mail, without sending it. */
export const generateLinkRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>().post("/admin/generate_link", requireAdmin(deps), async (c) => {
    const body = await readJsonObject(c);
    // The use case refuses an unknown type with the reference's message.
    const type = (optionalString(body, "type") ?? "") as GenerateLinkType;
    // The official client spreads its options into the body, so `redirectTo` may arrive camel-cased.
    const redirectTo =
      c.req.query("redirect_to") ?? optionalString(body, "redirect_to") ?? optionalString(body, "redirectTo");
    const input = {
      actor: { role: c.get("adminRole") },
      type,
      email: optionalString(body, "email") ?? "",
      newEmail: optionalString(body, "new_email"),
      password: optionalString(body, "password"),
      data: optionalMetadata(body, "data"),
      redirectTo,
    };
    const defined = Object.fromEntries(
      Object.entries(input).filter(([, v]) => v !== undefined),
    ) as typeof input;
    const link = unwrap(await generateLink(deps, defined));
    return c.json({
      ...userJson(link.user),
      action_link: link.actionLink,
      email_otp: link.emailOtp,
      hashed_token: link.hashedToken,
      verification_type: link.verificationType,
      redirect_to: link.redirectTo,
    });
  });
