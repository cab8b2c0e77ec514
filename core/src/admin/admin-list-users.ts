import type { UserWithIdentities } from "../accounts/index.js";
import { err, failures, ok, type Result } from "../kernel/index.js";
import type { AdminDeps } from "./deps.js";

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 1000;

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
  const page = input.page ?? 1;
  const requested = input.perPage ?? DEFAULT_PER_PAGE;
  if (!Number.isInteger(page) || !Number.isInteger(requested) || page < 1 || requested < 1) {
    return err(failures.paginationInvalid());
  }
  const perPage = Math.min(requested, MAX_PER_PAGE);
  const offset = (page - 1) * perPage;
  // A page so far out that its offset is no longer an exact integer would reach SQL as a float.
  if (!Number.isSafeInteger(offset)) return err(failures.paginationInvalid());
  const aud = input.aud || deps.settings.jwt.aud;
  const { users, total } = await deps.store.users.list({ offset, limit: perPage, aud });
  return ok({ users, total, page, perPage, aud });
}
