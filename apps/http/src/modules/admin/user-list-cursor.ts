import { failures } from "@authsvc/core";
import type { UserListPosition } from "@authsvc/core/accounts";
import { adminListUsersAfter } from "@authsvc/core/admin";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { userJson } from "../../http/presenters/user-json.js";
import type { ModuleContext } from "../module.js";

/**
 * Whether `GET /admin/users` answers in cursor mode: as the reference, when its flag is on and neither
 * `page` nor `per_page` is given; and whenever `cursor` or `limit` is (no page-mode client sends them).
 */
export function wantsCursor(c: Context<AppEnv>, ctx: ModuleContext): boolean {
  const q = (name: string) => (c.req.query(name) ?? "") !== "";
  if (q("cursor") || q("limit")) return true;
  return ctx.config.admin.cursorPagination && !q("page") && !q("per_page");
}

/** The reference's opaque cursor: base64url (no padding) of `{"created_at","id"}`. */
export const encodeCursor = (p: UserListPosition): string =>
  Buffer.from(JSON.stringify({ created_at: p.createdAt, id: p.id })).toString("base64url");

function decodeCursor(raw: string): UserListPosition {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error("not base64url");
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw failures.badKeysetParameters("invalid cursor encoding");
  }
  const { created_at: createdAt, id } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof createdAt !== "string" || typeof id !== "string")
    throw failures.badKeysetParameters("invalid cursor");
  return { createdAt, id };
}

function limitParam(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value)) throw failures.badKeysetParameters("limit must be a whole number");
  return Number(value);
}

/**
 * One keyset page: `{users, aud, pagination: {next_cursor?, has_more}}` and, when more follow,
 * `Link: <…&cursor=…>; rel="next"` (the request's other parameters kept, `page` dropped), as the
 * reference answers. No `X-Total-Count`: cursor mode counts nothing.
 */
export async function keysetPage(c: Context<AppEnv>, ctx: ModuleContext) {
  const cursor = c.req.query("cursor") ?? "";
  const filter = c.req.query("filter") ?? "";
  const input = {
    limit: limitParam(c.req.query("limit")),
    after: cursor === "" ? null : decodeCursor(cursor),
    ...(filter ? { filter } : {}),
  };
  const page = unwrap(await adminListUsersAfter(c.get("deps"), input));
  const next = page.next === null ? null : encodeCursor(page.next);
  if (next !== null) {
    const url = new URL(c.req.url);
    url.searchParams.delete("page");
    url.searchParams.set("cursor", next);
    c.header("link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  return c.json({
    users: page.users.map(userJson),
    aud: ctx.auth.settings.jwt.aud,
    pagination: { ...(next === null ? {} : { next_cursor: next }), has_more: next !== null },
  });
}
