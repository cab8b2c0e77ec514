/** Admin: the user administration API, invitations and generate_link. */
export * from "./admin-create-user.js";
export * from "./admin-delete-user.js";
export * from "./admin-get-user.js";
export * from "./admin-list-audit.js";
export * from "./admin-list-users.js";
export * from "./admin-update-user.js";
export type { AdminUserFields } from "./admin-user-fields.js";
export * from "./generate-link.js";
export * from "./invite-user.js";
export { type PageWindow, pageWindow } from "./paging.js";
