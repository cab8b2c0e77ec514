/** The API versions of the reference; only one dated version exists so far. */
export type ApiVersion = "legacy" | "2024-01-01";

export const API_VERSION_HEADER = "X-Supabase-Api-Version";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads `X-Supabase-Api-Version: YYYY-MM-DD`. Any valid date on or after 2024-01-01 selects that
 * version; an earlier, absent or malformed value keeps the legacy behaviour (as the reference does).
 */
export function parseApiVersion(value: string | undefined): ApiVersion {
  if (!value) return "legacy";
  const match = DATE.exec(value.trim());
  if (!match) return "legacy";
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value.trim()) return "legacy";
  return value.trim() >= "2024-01-01" ? "2024-01-01" : "legacy";
}
