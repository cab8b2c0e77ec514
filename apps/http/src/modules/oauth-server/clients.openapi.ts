import { type Operation, PAGE_HEADERS, PAGE_QUERY } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { ClientBody } from "./clients.js";
import { OAUTH_CLIENT, REGISTERED_CLIENT } from "./oauth.openapi-schemas.js";

const clientId = [{ name: "client_id", description: "The client's id." }];

/** Dynamic registration and the admin's clients (routes/oauth/clients.ts). */
export const clientOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/oauth/clients/register",
    summary: "Registers a client (RFC 7591), when `OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION` is on.",
    description:
      "Limited per client address (`RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER`), whether `RATE_LIMIT_HEADER` is set or not.",
    access: "public",
    limited: true,
    body: { schema: ClientBody },
    responses: {
      201: { description: "The client; a confidential one's secret, once.", body: REGISTERED_CLIENT },
    },
    errors: [403, 404],
  },
  {
    method: "post",
    path: "/admin/oauth/clients",
    summary: "Creates a client.",
    access: "admin",
    body: { schema: ClientBody },
    responses: { 201: { description: "The client; a confidential one's secret, once.", body: OAUTH_CLIENT } },
    errors: [404],
  },
  {
    method: "get",
    path: "/admin/oauth/clients",
    summary: "Lists the clients, newest first.",
    access: "admin",
    query: PAGE_QUERY,
    responses: {
      200: {
        description: "One page of clients.",
        body: closed({ clients: { type: "array", items: OAUTH_CLIENT } }),
        headers: PAGE_HEADERS,
      },
    },
    errors: [404],
  },
  {
    method: "get",
    path: "/admin/oauth/clients/{client_id}",
    summary: "Reads a client.",
    access: "admin",
    pathParameters: clientId,
    responses: { 200: { description: "The client.", body: OAUTH_CLIENT } },
    errors: [404],
  },
  {
    method: "put",
    path: "/admin/oauth/clients/{client_id}",
    summary: "Updates a client's fields (not its type).",
    access: "admin",
    pathParameters: clientId,
    body: { schema: ClientBody },
    responses: { 200: { description: "The client.", body: OAUTH_CLIENT } },
    errors: [404],
  },
  {
    method: "delete",
    path: "/admin/oauth/clients/{client_id}",
    summary: "Deletes a client; its sessions end.",
    access: "admin",
    pathParameters: clientId,
    responses: { 204: { description: "Deleted." } },
    errors: [404],
  },
  {
    method: "post",
    path: "/admin/oauth/clients/{client_id}/regenerate_secret",
    summary: "Issues a confidential client a new secret; the old one stops working.",
    access: "admin",
    pathParameters: clientId,
    responses: { 200: { description: "The client, with its new secret.", body: OAUTH_CLIENT } },
    errors: [404],
  },
];
