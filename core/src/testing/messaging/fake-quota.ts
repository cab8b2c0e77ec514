import type { SendQuota } from "../../messaging/index.js";

/** An in-memory fixed-window counter. */
export function fakeQuota(): SendQuota & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  return {
    counts,
    take: async (key, limit, windowMs, now) => {
      const window = `${key}@${Math.floor(now.getTime() / windowMs)}`;
      const used = counts.get(window) ?? 0;
      if (used >= limit) return false;
      counts.set(window, used + 1);
      return true;
    },
  };
}
