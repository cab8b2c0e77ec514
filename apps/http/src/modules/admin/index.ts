import { adminAuditRoutes } from "../../routes/admin-audit.js";
import { adminAuditOperations } from "../../routes/admin-audit.openapi.js";
import { generateLinkRoutes } from "../../routes/admin-generate-link.js";
import { generateLinkOperations } from "../../routes/admin-generate-link.openapi.js";
import { adminUserRoutes } from "../../routes/admin-users.js";
import { adminUserOperations } from "../../routes/admin-users.openapi.js";
import type { HttpModule } from "../module.js";
import { routeFilesOf } from "../module.js";

/** The admin API: users, the audit log, invitations and generated links. */
export const adminModule: HttpModule = {
  name: "admin",
  routes: (ctx) =>
    routeFilesOf(adminUserRoutes(ctx.auth), adminAuditRoutes(ctx.auth), generateLinkRoutes(ctx.auth)),
  statuses: {
    not_admin: 403,
    invite_not_found: 404,
  },
  failureStatuses: {
    userIdNotUuid: 404,
    // The reference fails with a 500 there; the clash is with existing state, not a malformed input.
    userIdTaken: 422,
  },
  operations: [...adminUserOperations, ...adminAuditOperations, ...generateLinkOperations],
};
