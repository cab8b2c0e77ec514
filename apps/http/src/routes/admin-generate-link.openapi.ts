import { type Operation, REDIRECT_QUERY, ref } from "../http/operation.js";
import { GenerateLinkBody } from "./admin-generate-link.js";

/** `POST /admin/generate_link` (routes/admin-generate-link.ts). */
export const generateLinkOperations: readonly Operation[] = [
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
];
