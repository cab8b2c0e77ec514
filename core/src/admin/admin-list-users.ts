import type { UserWithIdentities } from "../accounts/index.js";
import { ok, type Result } from "../kernel/index.js";
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
 * Lists users newest first (`GET /admin/users`): page 1 and 50 a page by default, at most 1000 a
 * page. Newest first matters: the official client's tests look for a just-created user on the default
 * first page of a database that keeps growing. Like the reference, only users of one audience are
 * listed: `aud` when given (the `X-JWT-AUD` header), else the configured one.
 */
export async function adminListUsers(
  deps: Pick<AdminDeps, "store" | "settings">,
  input: { page?: number; perPage?: number; aud?: string },
): Promise<Result<UserPage>> {
  const window = pageWindow(input);
  if (!window.ok) return window;
  const { page, perPage, offset } = window.value;
  const aud = input.aud || deps.settings.jwt.aud;
  const { users, total } = await deps.store.users.list({ offset, limit: perPage, aud });
  return ok({ users, total, page, perPage, aud });
}
