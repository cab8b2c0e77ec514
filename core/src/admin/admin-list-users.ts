import type { UserListPosition, UserWithIdentities } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { AdminDeps } from "./deps.js";
import { pageWindow } from "./paging.js";

/** One page of users, with what the HTTP layer needs for `X-Total-Count` and `Link`. */
export interface UserPage {
  readonly users: UserWithIdentities[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  /** The audience listed (the body's `aud`). */
  readonly aud: string;
}

/**
 * How many users a filtered list counts at most. The total of the whole audience is kept by the store
 * and costs nothing; a filter's matches must be counted, and a filter as broad as `@` would count every
 * user on every request.
 */
export const FILTERED_COUNT_LIMIT = 1_000;

/**
 * Lists users newest first (`GET /admin/users`): page 1 and 50 a page by default, at most 1000 a
 * page. Newest first matters: the official client's tests look for a just-created user on the default
 * first page of a database that keeps growing. Like the reference, only users of one audience are
 * listed: `aud` when given (the `X-JWT-AUD` header), else the configured one.
 *
 * `filter`, as the reference's: only users whose email or `user_metadata.full_name` contains it
 * (here case-insensitive for both, and `%` and `_` match themselves, not any text). The total of a
 * filtered list is exact up to {@link FILTERED_COUNT_LIMIT} matches; past that it is a lower bound:
 * that limit, or the users up to the end of the page served when that is more.
 */
export async function adminListUsers(
  deps: Pick<AdminDeps, "store" | "settings">,
  input: { page?: number; perPage?: number; aud?: string; filter?: string },
): Promise<Result<UserPage>> {
  const window = pageWindow(input);
  if (!window.ok) return window;
  const { page, perPage, offset } = window.value;
  const aud = input.aud || deps.settings.jwt.aud;
  if (!input.filter) {
    const { users, total } = await deps.store.users.list({ offset, limit: perPage, aud });
    return ok({ users, total, page, perPage, aud });
  }
  const { users, total: counted } = await deps.store.users.list({
    offset,
    limit: perPage,
    aud,
    filter: input.filter,
    countLimit: FILTERED_COUNT_LIMIT,
  });
  const total = users.length > 0 ? Math.max(counted, offset + users.length) : counted;
  return ok({ users, total, page, perPage, aud });
}

/** A keyset page of users (`GET /admin/users` in cursor mode): no count, the next position if any. */
export interface UserKeysetPage {
  readonly users: UserWithIdentities[];
  readonly next: UserListPosition | null;
  readonly aud: string;
}

/** The reference's page sizes in cursor mode: 50 unless told, at most 1000. */
export const DEFAULT_KEYSET_LIMIT = 50;
export const MAX_KEYSET_LIMIT = 1_000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `GET /admin/users` with a cursor (the reference's keyset mode, v2.194): newest first, `limit` users
 * (50 by default, 1000 at most; 0 or less is refused, as the reference) after `after`, with the
 * audience and `filter` of page mode. A cursor whose position is not a time and a UUID is refused
 * (`400 validation_failed`), as the reference refuses one it cannot decode.
 */
export async function adminListUsersAfter(
  deps: Pick<AdminDeps, "store" | "settings">,
  input: { limit?: number; after: UserListPosition | null; aud?: string; filter?: string },
): Promise<Result<UserKeysetPage>> {
  const limit = Math.min(input.limit ?? DEFAULT_KEYSET_LIMIT, MAX_KEYSET_LIMIT);
  if (!Number.isSafeInteger(limit) || limit < 1)
    return err(failures.badKeysetParameters("limit must be greater than 0"));
  const { after } = input;
  if (after !== null && (!isUuid(after.id) || !RFC3339.test(after.createdAt))) {
    return err(failures.badKeysetParameters("invalid cursor"));
  }
  const aud = input.aud || deps.settings.jwt.aud;
  const { users, next } = await deps.store.users.listAfter({
    limit,
    after,
    aud,
    ...(input.filter ? { filter: input.filter } : {}),
  });
  return ok({ users, next, aud });
}
