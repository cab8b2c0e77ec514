import { type AuditLog, auditPayload } from "../../accounts/index.js";
import type { FakeTables } from "../fake-tables.js";

/** The audit log over the shared in-memory tables; ids are the entries' positions. */
export function fakeAudit(t: FakeTables): AuditLog {
  return {
    record: async (entry) => void t.audit.push(entry),
    list: async ({ offset, limit, search }) => {
      const needle = search?.text.toLowerCase();
      const all = t.audit
        .map((entry, i) => ({
          id: `00000000-0000-4000-a000-${String(i + 1).padStart(12, "0")}`,
          payload: auditPayload(entry),
          createdAt: entry.at,
          ipAddress: entry.ipAddress ?? "",
        }))
        .filter(
          (record) =>
            search === undefined ||
            search.fields.some((field) => {
              const value = record.payload[field];
              return typeof value === "string" && value.toLowerCase().includes(needle ?? "");
            }),
        )
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      return { entries: all.slice(offset, offset + limit), total: all.length };
    },
  };
}
