import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { adminAuditEndpoints } from "./admin-audit.js";
import { generateLinkEndpoints } from "./admin-generate-link.js";
import { adminLockoutEndpoints } from "./admin-lockout.js";
import { adminSessionEndpoints } from "./admin-sessions.js";
import { adminUserEndpoints } from "./admin-users.js";
import * as admin from "./section.js";

/** The admin API: users, their lockout, the audit log, invitations and generated links. */
export const adminModule: HttpModule = {
  name: "admin",
  section: sectionOf(admin),
  endpoints: [
    ...adminUserEndpoints,
    ...adminLockoutEndpoints,
    ...adminSessionEndpoints,
    ...adminAuditEndpoints,
    ...generateLinkEndpoints,
  ],
  statuses: {
    not_admin: 403,
    invite_not_found: 404,
  },
  failureStatuses: {
    userIdNotUuid: 404,
    // The reference fails with a 500 there; the clash is with existing state, not a malformed input.
    userIdTaken: 422,
  },
};
