import type { Operation } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { CLIENT_SUMMARY, USERINFO } from "./oauth.openapi-schemas.js";

const GRANT = closed(
  {
    client: CLIENT_SUMMARY,
    scopes: { type: "array", items: { type: "string" } },
    resources: {
      type: "array",
      items: { type: "string", format: "uri" },
      description:
        "An authsvc addition: the resources (RFC 8707) the user approved the client's tokens for, whose servers accept them.",
    },
    granted_at: { type: "string", format: "date-time" },
  },
  undefined,
  "A client the user consented to, and what to.",
);

/** The OIDC userinfo endpoint and the signed-in user's grants (routes/oauth/user.ts). */
export const oauthUserOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/oauth/userinfo",
    summary: "The claims about the user that the token's scopes grant (OIDC Core §5.3).",
    access: "user",
    responses: { 200: { description: "The claims.", body: USERINFO } },
    errors: [404],
  },
  {
    method: "get",
    path: "/user/oauth/grants",
    summary: "The clients the signed-in user consented to.",
    access: "user",
    responses: { 200: { description: "The grants.", body: { type: "array", items: GRANT } } },
    errors: [404],
  },
  {
    method: "delete",
    path: "/user/oauth/grants",
    summary: "Withdraws the consent to a client: its sessions of the user end.",
    access: "user",
    query: [{ name: "client_id", description: "The client's id.", required: true }],
    responses: { 204: { description: "Withdrawn." } },
    errors: [404],
  },
];
