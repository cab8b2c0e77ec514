import type { Operation } from "../http/operation.js";
import { PASSKEY } from "./passkeys.openapi.js";

const userId = { name: "user_id", description: "The user's id." };

/** The admin's view of a user's passkeys (routes/admin-passkeys.ts). */
export const adminPasskeyOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/admin/users/{user_id}/passkeys",
    summary: "Lists a user's passkeys.",
    access: "admin",
    pathParameters: [userId],
    responses: { 200: { description: "The passkeys.", body: { type: "array", items: PASSKEY } } },
    errors: [404],
  },
  {
    method: "delete",
    path: "/admin/users/{user_id}/passkeys/{passkey_id}",
    summary: "Removes one of a user's passkeys.",
    access: "admin",
    pathParameters: [userId, { name: "passkey_id", description: "The passkey's id." }],
    responses: { 204: { description: "Removed." } },
    errors: [404],
  },
];
