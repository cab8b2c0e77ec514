import type { Passkey, WebauthnChallenge, WebauthnChallengeType } from "../passkey.js";

/** The passkeys of users (`webauthn_credentials`). */
export interface PasskeyStore {
  /** Inserts a passkey; `"exists"` when its credential id is registered already, to anyone. */
  insert(passkey: Passkey): Promise<"inserted" | "exists">;
  /** The user's passkeys, oldest first. */
  listByUser(userId: string): Promise<Passkey[]>;
  /** The passkey `id` if it belongs to `userId`, else null. */
  findOwned(userId: string, id: string): Promise<Passkey | null>;
  /** Renames the user's passkey `id`; null when it is not theirs. */
  rename(userId: string, id: string, friendlyName: string, at: Date): Promise<Passkey | null>;
  /** Deletes the user's passkey `id`; false when it is not theirs. */
  delete(userId: string, id: string): Promise<boolean>;
  /**
   * Records a sign-in with passkey `id`: its new counter and backup state, and when. Only if the
   * counter advances past the stored one (or both are 0, for authenticators that keep none), in one
   * statement: of two sign-ins that show one counter value, the second gets false.
   */
  recordUse(id: string, use: { signCount: number; backedUp: boolean; at: Date }): Promise<boolean>;
}

/** The challenges of passkey ceremonies (`webauthn_challenges`). */
export interface WebauthnChallengeStore {
  insert(challenge: WebauthnChallenge): Promise<void>;
  /**
   * Takes the challenge `id` of `type` made for `userId` (null: for nobody, a sign-in) and deletes it,
   * in one statement: of any number of concurrent calls for one challenge exactly one gets it. Null
   * when there is none such (never made, another user's or type, used already).
   */
  consume(id: string, type: WebauthnChallengeType, userId: string | null): Promise<WebauthnChallenge | null>;
  /** Deletes the challenges that expired before `now`; how many. */
  deleteExpired(now: Date): Promise<number>;
}
