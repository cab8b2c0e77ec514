import type { FlowState } from "../flow-state.js";

/**
 * Flow states (the reference's `flow_state` table): a PKCE sign-in waiting to be exchanged, or an
 * external sign-in waiting for the provider's callback. The authorization code is stored hashed.
 */
export interface FlowStateStore {
  /** Stores a new flow state. */
  create(state: FlowState): Promise<void>;
  /**
   * Removes and returns the flow state `id` (an OAuth `state`): of two concurrent callers exactly one
   * receives it, the other null, so a `state` is usable once.
   */
  consume(id: string): Promise<FlowState | null>;
  /**
   * Gives the user's newest PKCE flow state of `authenticationMethod` the code whose hash is
   * `authCodeHash`, issued at `now`, and returns it; null when the user has none.
   */
  issueCode(
    userId: string,
    authenticationMethod: string,
    authCodeHash: string,
    now: Date,
  ): Promise<FlowState | null>;
  /** The flow state holding the code whose hash is `authCodeHash`, locked until the transaction ends. */
  lockByCode(authCodeHash: string): Promise<FlowState | null>;
  /** Deletes flow state `id`; false when it was already gone (someone else used it). */
  delete(id: string): Promise<boolean>;
  /**
   * Deletes every flow state of the user (`userId`, issued codes included) and every identity-linking
   * flow that targets it; answers how many went.
   */
  deleteForUser(userId: string): Promise<number>;
}
