import { type GenerateLinkType, generateLink } from "@authsvc/core/admin";
import * as v from "valibot";
import { defined, metadata, parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { REDIRECT_QUERY, ref } from "../../http/operation.js";
import { userJson } from "../../http/presenters/user-json.js";
import { endpoint, type ModuleEndpoint } from "../module.js";

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
export const generateLinkEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/admin/generate_link",
      summary:
        "The link (and code) a mail would carry — `signup`, `invite`, `magiclink`, `recovery`, `email_change_current`, `email_change_new` — without sending it.",
      hooks: true,
      access: "admin",
      query: [REDIRECT_QUERY],
      body: {
        schema: GenerateLinkBody,
        fields: {
          type: {
            enum: ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"],
            description: "Required.",
          },
          new_email: { description: "For `email_change_current` and `email_change_new`." },
          password: { description: "For `signup`." },
        },
      },
      responses: { 200: { description: "The user and the link.", body: ref("GeneratedLink") } },
      errors: [404, 422],
    },
    ({ auth }) => [
      requireAdmin(auth),
      async (c) => {
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
      },
    ],
  ),
];
