import type { PasswordHasher } from "../../accounts/index.js";

/** A deliberately fast "hasher": `plain$<password>`; `bcrypt$…` counts as an imported hash. */
export function fakeHasher(): PasswordHasher & { dummyCalls: number } {
  const hasher = {
    dummyCalls: 0,
    hash: async (password: string) => `plain$${password}`,
    verify: async (hash: string, password: string) =>
      hash === `plain$${password}` || hash === `bcrypt$${password}`,
    needsRehash: (hash: string) => !hash.startsWith("plain$"),
    verifyDummy: async () => {
      hasher.dummyCalls++;
    },
    isSupportedHash: (hash: string) => hash.startsWith("bcrypt$") || hash.startsWith("plain$"),
  };
  return hasher;
}
