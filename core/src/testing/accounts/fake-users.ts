import type { IdentityRepository, User, UserRepository } from "../../accounts/index.js";
import type { FakeTables } from "../fake-tables.js";

/** Users over the shared in-memory tables (deleting a user cascades like the foreign keys do). */
export function fakeUsers(t: FakeTables): UserRepository {
  // The address is unique among users outside SSO only (the store's partial unique index).
  const sameEmail = (u: User, o: User) =>
    u.email !== null && o.email === u.email && u.isSsoUser !== true && o.isSsoUser !== true;
  const clash = (u: User) =>
    [...t.users.values()].find((o) => o.id !== u.id && (sameEmail(u, o) || (u.phone && o.phone === u.phone)));
  const withIdentities = (u: User) => ({
    ...u,
    identities: [...t.identities.values()].filter((i) => i.userId === u.id),
  });
  // A single user's body carries its factors; the list does not (the reference's list is not eager).
  const withFactors = (u: User) => ({
    ...withIdentities(u),
    factors: [...t.factors.values()]
      .filter((f) => f.userId === u.id)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
  });
  return {
    findById: async (id) => t.users.get(id) ?? null,
    findWithIdentities: async (id) => {
      const u = t.users.get(id);
      return u ? withFactors(u) : null;
    },
    // As the store: SSO users' addresses are another linking domain's (they may repeat one).
    findByEmail: async (email) =>
      [...t.users.values()].find((u) => u.email === email.toLowerCase() && u.isSsoUser !== true) ?? null,
    findByPhone: async (phone) => [...t.users.values()].find((u) => u.phone === phone) ?? null,
    lock: async (id) => t.users.get(id) ?? null,
    insert: async (u) => {
      if (t.users.has(u.id)) return "duplicate_id";
      const other = clash(u);
      if (other) return u.email && other.email === u.email ? "duplicate_email" : "duplicate_phone";
      t.users.set(u.id, u);
      return "inserted";
    },
    update: async (u) => {
      if (!t.users.has(u.id)) return "not_found";
      const other = clash(u);
      if (other) return u.email && other.email === u.email ? "duplicate_email" : "duplicate_phone";
      t.users.set(u.id, u);
      return "updated";
    },
    delete: async (id) => {
      for (const [k, s] of t.sessions) if (s.userId === id) t.sessions.delete(k);
      for (const [k, r] of t.tokens) if (r.userId === id) t.tokens.delete(k);
      for (const [k, i] of t.identities) if (i.userId === id) t.identities.delete(k);
      for (const [k, o] of t.oneTimeTokens) if (o.userId === id) t.oneTimeTokens.delete(k);
      for (const [k, f] of t.factors) if (f.userId === id) t.factors.delete(k);
      for (const [k, p] of t.passkeys) if (p.userId === id) t.passkeys.delete(k);
      for (const [k, c] of t.webauthnChallenges) if (c.userId === id) t.webauthnChallenges.delete(k);
      return t.users.delete(id);
    },
    list: async ({ offset, limit, aud, filter, countLimit = Number.POSITIVE_INFINITY }) => {
      const needle = filter?.toLowerCase() ?? "";
      const matches = (u: User) =>
        (u.email ?? "").toLowerCase().includes(needle) ||
        (typeof u.userMetadata.full_name === "string" &&
          u.userMetadata.full_name.toLowerCase().includes(needle));
      const all = [...t.users.values()]
        .filter((u) => (aud === undefined || u.aud === aud) && (!needle || matches(u)))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      const total = needle ? Math.min(all.length, countLimit) : all.length;
      return { users: all.slice(offset, offset + limit).map(withIdentities), total };
    },
    listAfter: async ({ limit, after, aud, filter }) => {
      const needle = filter?.toLowerCase() ?? "";
      const positionOf = (u: User) => ({ createdAt: u.createdAt.toISOString(), id: u.id });
      // Newest first; "after" a position is older than it (or as old with a smaller id).
      const before = (u: User) =>
        after === null ||
        u.createdAt.getTime() < Date.parse(after.createdAt) ||
        (u.createdAt.getTime() === Date.parse(after.createdAt) && u.id < after.id);
      const all = [...t.users.values()]
        .filter((u) => (aud === undefined || u.aud === aud) && before(u))
        .filter(
          (u) =>
            !needle ||
            (u.email ?? "").toLowerCase().includes(needle) ||
            (typeof u.userMetadata.full_name === "string" &&
              u.userMetadata.full_name.toLowerCase().includes(needle)),
        )
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      const page = all.slice(0, limit);
      const last = page.at(-1);
      return {
        users: page.map(withIdentities),
        next: all.length > limit && last ? positionOf(last) : null,
      };
    },
  };
}

/** Identities over the shared in-memory tables. */
export function fakeIdentities(t: FakeTables): IdentityRepository {
  return {
    insert: async (i) => void t.identities.set(i.id, i),
    update: async (i) => void (t.identities.has(i.id) && t.identities.set(i.id, i)),
    listByUser: async (userId) => [...t.identities.values()].filter((i) => i.userId === userId),
    deleteExternal: async (userId) => {
      const gone = [...t.identities.values()].filter(
        (i) => i.userId === userId && i.provider !== "email" && i.provider !== "phone",
      );
      for (const i of gone) t.identities.delete(i.id);
      return gone.length;
    },
  };
}
