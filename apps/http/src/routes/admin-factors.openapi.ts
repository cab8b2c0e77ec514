import { type Operation, ref } from "../http/operation.js";
import { UpdateFactorBody } from "./admin-factors.js";

const ids = [
  { name: "user_id", description: "The user's id." },
  { name: "factor_id", description: "The factor's id." },
];
const theFactor = { 200: { description: "The factor.", body: ref("Factor") } };

/** A user's factors, for admins (routes/admin-factors.ts). */
export const adminFactorOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/admin/users/{user_id}/factors",
    summary: "A user's factors.",
    access: "admin",
    pathParameters: ids.slice(0, 1),
    responses: { 200: { description: "The factors.", body: { type: "array", items: ref("Factor") } } },
    errors: [404],
  },
  {
    method: "put",
    path: "/admin/users/{user_id}/factors/{factor_id}",
    summary: "Renames a factor, or changes a phone factor's number.",
    access: "admin",
    pathParameters: ids,
    body: { schema: UpdateFactorBody },
    responses: theFactor,
    errors: [404, 422],
  },
  {
    method: "delete",
    path: "/admin/users/{user_id}/factors/{factor_id}",
    summary: "Removes a user's factor.",
    access: "admin",
    pathParameters: ids,
    responses: theFactor,
    errors: [404],
  },
];
