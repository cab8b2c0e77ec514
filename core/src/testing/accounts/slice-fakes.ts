import { sliceFakes } from "../slice-fakes.js";
import { fakeHasher } from "./fake-hasher.js";
import { fakeLeakedPasswords } from "./fake-leaked-passwords.js";

/** Accounts' ports: the password hasher and the leaked-password corpus. */
export const accountsFakes = sliceFakes({
  settings: {},
  deps: () => ({ hasher: fakeHasher(), leakedPasswords: fakeLeakedPasswords() }),
});
