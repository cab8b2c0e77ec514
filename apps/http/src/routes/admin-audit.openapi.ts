import { type Operation, PAGE_HEADERS, PAGE_QUERY, ref } from "../http/operation.js";

/** `GET /admin/audit` (routes/admin-audit.ts). */
export const adminAuditOperations: readonly Operation[] = [
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
];
