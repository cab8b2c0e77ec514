import type { ExternalIdentityStore } from "../../external/index.js";
import type { FakeTables } from "../fake-tables.js";

/** Identity lookups over the shared in-memory tables. */
export function fakeExternalIdentities(t: FakeTables): ExternalIdentityStore {
  const all = () => [...t.identities.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return {
    findByProvider: async (provider, providerId) =>
      all().find((i) => i.provider === provider && i.providerId === providerId) ?? null,
    listByVerifiedEmails: async (emails) =>
      all().filter((i) => {
        const email = i.identityData.email;
        return (
          typeof email === "string" &&
          emails.includes(email.toLowerCase()) &&
          i.identityData.email_verified === true
        );
      }),
    insertUnlessKnown: async (identity) => {
      const known = all().some(
        (i) => i.provider === identity.provider && i.providerId === identity.providerId,
      );
      if (!known) t.identities.set(identity.id, identity);
      return !known;
    },
    delete: async (id) => t.identities.delete(id),
  };
}
