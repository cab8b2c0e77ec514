import type { AuditRecord } from "@authsvc/core/accounts";
import { adminListAudit } from "@authsvc/core/admin";
import { unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { PAGE_HEADERS, PAGE_QUERY, ref } from "../../http/operation.js";
import { linkHeader, pageParam } from "../../http/pagination.js";
import { endpoint, type ModuleEndpoint } from "../module.js";

/** An audit entry as the reference serialises it. */
const auditJson = (entry: AuditRecord) => ({
  id: entry.id,
  payload: entry.payload,
  created_at: entry.createdAt.toISOString(),
  ip_address: entry.ipAddress,
});

/** `GET /admin/audit?page=&per_page=&query=<author|action|type>:<text>`: the audit log, newest first. */
export const adminAuditEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/audit",
      summary: "The audit log, newest first.",
      access: "admin",
      query: [
        ...PAGE_QUERY,
        {
          name: "query",
          description: "`author:<text>`, `action:<text>` or `type:<text>`: entries that match.",
        },
      ],
      responses: {
        200: {
          description: "One page of entries.",
          body: { type: "array", items: ref("AuditEntry") },
          headers: PAGE_HEADERS,
        },
      },
    },
    ({ auth }) => [
      requireAdmin(auth),
      async (c) => {
        const page = pageParam(c.req.query("page"), 1);
        const perPage = pageParam(c.req.query("per_page"), 50);
        const query = c.req.query("query");
        const list = unwrap(
          await adminListAudit(c.get("deps"), { page, perPage, ...(query ? { query } : {}) }),
        );
        c.header("x-total-count", String(list.total));
        c.header("link", linkHeader("/admin/audit", list, query ? { query } : {}));
        return c.json(list.entries.map(auditJson));
      },
    ],
  ),
];
