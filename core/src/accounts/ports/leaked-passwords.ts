import type { PortTraits } from "../../kernel/index.js";

/** What a leaked-password corpus says of one password. */
export type LeakVerdict = "leaked" | "clean" | "unavailable";

/**
 * A corpus of passwords known from breaches (the k-anonymity range API of Have I Been Pwned): asked
 * whether a new password is in it, so that a password every attacker tries first is refused.
 */
export interface LeakedPasswords {
  /**
   * `leaked` when the corpus holds `password`, `clean` when it does not, `unavailable` when the
   * corpus cannot be asked now (unreachable, too slow, a malformed answer). Never throws; whatever
   * leaves the process must not be enough to recover the password.
   */
  check(password: string): Promise<LeakVerdict>;
}

/** The corpus is asked over the network. */
export const leakedPasswordsTraits: PortTraits<LeakedPasswords> = { check: { waitsOutside: true } };
