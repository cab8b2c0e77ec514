/** Admin: the user administration API, invitations and generate_link. */

export type { AdminActor } from "./actor.js";
export { adminCreateUser } from "./admin-create-user.js";
export * from "./admin-delete-user.js";
export { adminEndSessions } from "./admin-end-sessions.js";
export { adminFindUsers } from "./admin-find-users.js";
export * from "./admin-get-user.js";
export { adminListAudit } from "./admin-list-audit.js";
export { adminListUsers, adminListUsersAfter } from "./admin-list-users.js";
export * from "./admin-lockout.js";
export * from "./admin-update-user.js";
export { type GenerateLinkType, generateLink } from "./generate-link.js";
export * from "./invite-user.js";
export { pageWindow } from "./paging.js";
