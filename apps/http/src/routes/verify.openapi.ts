import { type Operation, REDIRECT_QUERY, redirect, ref } from "../http/operation.js";
import { LINK_TYPES, TYPES, VerifyBody } from "./verify.js";

/** `POST /verify` and `GET /verify` (routes/verify.ts). */
export const verifyOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/verify",
    summary: "Verifies a code (with its email or phone) or a token hash: a session.",
    description: `\`type\` is one of ${TYPES.map((t) => `\`${t}\``).join(", ")}. The first confirmation of a two-step email change answers a message instead.`,
    hooks: true,
    access: "public",
    limited: true,
    query: [REDIRECT_QUERY],
    body: {
      schema: VerifyBody,
      fields: {
        type: { enum: [...TYPES], description: "What the code or token confirms; required." },
        token: { description: "The code from the mail or SMS, with its `email` or `phone`." },
        token_hash: { description: "The token hash of a mailed link, instead of `token` and an address." },
        password: {
          description: "A new password set with the confirmation (`signup`, `invite`, `recovery`).",
        },
      },
    },
    responses: {
      200: {
        description:
          "A session (with the verified `type`), or a message when the other address must confirm too.",
        body: { anyOf: [ref("VerifiedSession"), ref("VerifyMessage")] },
      },
    },
    errors: [403, 404, 422],
  },
  {
    method: "get",
    path: "/verify",
    summary: "The link of a mail: verifies its token and sends the browser on.",
    description:
      "To `redirect_to` with the session in the fragment, with `?code=` for a PKCE flow, or with `error`, `error_code` and `error_description` when the link is used or expired.",
    access: "public",
    limited: true,
    query: [
      { name: "type", description: "The link's kind.", required: true, schema: { enum: [...LINK_TYPES] } },
      { name: "token", description: "The token hash the mail carried.", required: true },
      REDIRECT_QUERY,
    ],
    responses: { 303: redirect("To `redirect_to` (or `SITE_URL`) with the outcome.") },
  },
];
