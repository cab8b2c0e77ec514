import type { AuthSettings } from "../../settings.js";
import { fakeDeps } from "../fake-deps.js";

/** Sign-up settings of the sign-up tests: every channel on, nothing autoconfirmed. */
export const signupSettings: AuthSettings["signup"] = {
  disabled: false,
  emailEnabled: true,
  phoneEnabled: true,
  anonymousEnabled: true,
  mailerAutoconfirm: false,
  smsAutoconfirm: false,
  hideExisting: false,
};

/** Fakes with some signup settings changed, and a hasher that records the passwords it hashes and checks. */
export function setUpSignUp(signup: Partial<AuthSettings["signup"]> = {}) {
  const base = fakeDeps({ signup: { ...signupSettings, ...signup } });
  const hashed: string[] = [];
  const checked: string[] = [];
  const hasher = {
    ...base.hasher,
    hash: async (password: string) => {
      hashed.push(password);
      return base.hasher.hash(password);
    },
    verify: async (hash: string, password: string) => {
      checked.push(password);
      return base.hasher.verify(hash, password);
    },
  };
  return { ...base, hasher, hashed, checked, tables: base.store.tables };
}
