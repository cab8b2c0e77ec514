import type { LeakedPasswords, LeakVerdict } from "../../accounts/index.js";

/** A corpus holding `leaked`; `down` makes it unavailable; `asked` counts its checks. */
export function fakeLeakedPasswords(
  leaked: Iterable<string> = [],
): LeakedPasswords & { asked: number; down: boolean } {
  const corpus = new Set(leaked);
  const fake = {
    asked: 0,
    down: false,
    check: async (password: string): Promise<LeakVerdict> => {
      fake.asked++;
      if (fake.down) return "unavailable";
      return corpus.has(password) ? "leaked" : "clean";
    },
  };
  return fake;
}
