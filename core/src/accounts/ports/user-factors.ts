import type { Factor } from "../factor.js";

/** Reads the second factors of users: every user body carries them (`factors`). */
export interface UserFactors {
  /** The user's factors, oldest first. */
  listByUser(userId: string): Promise<Factor[]>;
}
