import type { LogoutDeliveries, LogoutDelivery } from "../../oauth-server/index.js";

type Row = LogoutDelivery & { nextAttemptAt: Date };

/** The outbox of back-channel logouts in memory: `rows` by id; `add` records a session's end. */
export function fakeLogoutDeliveries(): LogoutDeliveries & {
  readonly rows: Map<string, Row>;
  add(row: Omit<LogoutDelivery, "attempts"> & { attempts?: number }): void;
} {
  const rows = new Map<string, Row>();
  return {
    rows,
    add(row) {
      rows.set(row.id, { attempts: 0, ...row, nextAttemptAt: row.createdAt });
    },
    async claim({ now, leaseUntil, limit, perClient }) {
      const perClientCount = new Map<string, number>();
      const due = [...rows.values()]
        .filter((row) => row.nextAttemptAt.getTime() <= now.getTime())
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .filter((row) => {
          const n = perClientCount.get(row.clientId) ?? 0;
          perClientCount.set(row.clientId, n + 1);
          return n < perClient;
        })
        .slice(0, limit);
      for (const row of due)
        rows.set(row.id, { ...row, attempts: row.attempts + 1, nextAttemptAt: leaseUntil });
      return due.map(({ nextAttemptAt: _next, ...delivery }) => delivery);
    },
    async remove(id) {
      rows.delete(id);
    },
    async retryAt(id, at) {
      const row = rows.get(id);
      if (row) rows.set(id, { ...row, nextAttemptAt: at });
    },
  };
}
