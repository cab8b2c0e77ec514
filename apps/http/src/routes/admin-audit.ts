import type { AuthDeps } from "@authsvc/core";
import type { AuditRecord } from "@authsvc/core/accounts";
import { adminListAudit } from "@authsvc/core/admin";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import { unwrap } from "../http/body.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { linkHeader, pageParam } from "../http/pagination.js";

/** An audit entry as the reference serialises it. */
const auditJson = (entry: AuditRecord) => ({
  id: entry.id,
  payload: entry.payload,
  created_at: entry.createdAt.toISOString(),
  ip_address: entry.ipAddress,
});

/** `GET /admin/audit?page=&per_page=&query=<author|action|type>:<text>`: the audit log, newest first. */
export const adminAuditRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>().get("/admin/audit", requireAdmin(deps), async (c) => {
    const page = pageParam(c.req.query("page"), 1);
    const perPage = pageParam(c.req.query("per_page"), 50);
    const query = c.req.query("query");
    const list = unwrap(await adminListAudit(c.get("deps"), { page, perPage, ...(query ? { query } : {}) }));
    c.header("x-total-count", String(list.total));
    c.header("link", linkHeader("/admin/audit", list, query ? { query } : {}));
    return c.json(list.entries.map(auditJson));
  });
