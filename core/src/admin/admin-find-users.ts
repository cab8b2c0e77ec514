import { normalizePhone, type UserWithIdentities } from "../accounts/index.js";
import { isUuid, ok, type Result } from "../kernel/index.js";
import { adminListUsers, type UserPage } from "./admin-list-users.js";
import type { AdminDeps } from "./deps.js";

/**
 * A search of the users for an administrator: a user id finds that user, a phone number (digits, an
 * optional `+`, spaces or dashes) the user with that phone, and anything else is the admin list's
 * filter (email or `user_metadata.full_name` containing it, paged as `GET /admin/users`).
 */
export async function adminFindUsers(
  deps: Pick<AdminDeps, "store" | "settings">,
  input: { query: string; page?: number; perPage?: number },
): Promise<Result<UserPage>> {
  const query = input.query.trim();
  const single = async (user: UserWithIdentities | null) => {
    const users = user === null ? [] : [user];
    return ok({ users, total: users.length, page: 1, perPage: 1, aud: deps.settings.jwt.aud });
  };
  if (isUuid(query)) return single(await deps.store.users.findWithIdentities(query.toLowerCase()));
  if (/^\+?[\d\s-]{6,}$/.test(query)) {
    const phone = normalizePhone(query.replaceAll("-", ""));
    if (phone.ok) {
      const user = await deps.store.users.findByPhone(phone.value);
      return single(user === null ? null : await deps.store.users.findWithIdentities(user.id));
    }
  }
  return adminListUsers(deps, { page: input.page, perPage: input.perPage, filter: query });
}
