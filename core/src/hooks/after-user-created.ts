import type { User, UserRepository } from "../accounts/index.js";
import type { Transactor } from "../kernel/index.js";
import type { HookDispatcher } from "./ports/hook-dispatcher.js";

/** What the after-user-created hook needs of a store: its users, inside and outside transactions. */
type WithUsers = { readonly users: UserRepository };

/**
 * The store with the after-user-created hook (`HOOK_AFTER_USER_CREATED_*`) behind it: every user a
 * transaction inserts is handed to the hook once that transaction has committed, with its
 * identities as they then are, before the transaction's caller goes on. Every flow that makes a user
 * inserts it through `users.insert` (see `createUser`), so sign-up, anonymous sign-in, passwordless
 * codes and links, external, ID-token, SSO and Web3 sign-ins, admin create, invite and generate_link
 * are all covered, and a flow added later is too; `import-gotrue` writes its own rows and is not.
 *
 * The hook only hears of the user: its answer is not used, and its failure (refusal, timeout,
 * unreachable endpoint, failing function) never undoes the user nor fails the request. The
 * dispatcher reports each failed run (log line and metric). A rolled-back transaction created no
 * one, so the hook hears nothing of it. The same store is returned when the hook is off.
 */
export function withAfterUserCreated<R extends WithUsers, S extends R & Transactor<R>>(
  store: S,
  hooks: HookDispatcher,
): S {
  if (!hooks.enabled("after_user_created")) return store;
  const announce = async (created: readonly string[]) => {
    for (const id of created) {
      try {
        const user: User | null = await store.users.findWithIdentities(id);
        // Removed again before the hook could hear of it (a sign-up whose confirmation failed).
        if (user === null) continue;
        await hooks.run("after_user_created", { user });
      } catch {
        // Reported by the dispatcher; the user stays as committed.
      }
    }
  };
  const recording = (users: UserRepository, created: string[]): UserRepository => ({
    ...users,
    async insert(user) {
      const inserted = await users.insert(user);
      if (inserted === "inserted") created.push(user.id);
      return inserted;
    },
  });
  return {
    ...store,
    users: {
      ...store.users,
      // A lone insert, outside a transaction, commits at once.
      async insert(user: User) {
        const inserted = await store.users.insert(user);
        if (inserted === "inserted") await announce([user.id]);
        return inserted;
      },
    },
    async transaction<T>(fn: (repos: R) => Promise<T>): Promise<T> {
      const created: string[] = [];
      const result = await store.transaction((repos) =>
        fn({ ...repos, users: recording(repos.users, created) }),
      );
      await announce(created);
      return result;
    },
  } as S;
}
