import { failures } from "@authsvc/core";

/** A positive whole number from the query, or the default when absent or empty. */
export function pageParam(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^-?\d+$/.test(value)) throw failures.paginationInvalid();
  return Number(value);
}

/**
 * `Link` exactly as the reference writes it (the official client parses it naively: `page` must be the
 * first `=`). `extra` query parameters (the audit log's `query`) follow, so the next page keeps the filter.
 */
export function linkHeader(
  path: string,
  page: { page: number; perPage: number; total: number },
  extra: Readonly<Record<string, string>> = {},
): string {
  const last = Math.max(1, Math.ceil(page.total / page.perPage));
  const tail = Object.entries(extra)
    .map(([key, value]) => `&${key}=${encodeURIComponent(value)}`)
    .join("");
  const url = (n: number) => `<${path}?page=${n}&per_page=${page.perPage}${tail}>`;
  const links: string[] = [];
  if (page.page < last) links.push(`${url(page.page + 1)}; rel="next"`);
  links.push(`${url(last)}; rel="last"`);
  return links.join(", ");
}
