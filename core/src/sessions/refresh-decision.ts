/** What a refresh does with the presented token (spec, "States and transitions"). */
export type RefreshDecision =
  /** The token is current: revoke it and issue its child. */
  | "rotate"
  /** The previous token, again within the reuse interval: answer the current child once more. */
  | "reissue_child"
  /** Reuse of a revoked token: revoke everything descended from it and refuse. */
  | "revoke_descendants"
  /** Revoked token while rotation is disabled: refuse, revoke nothing. */
  | "refuse";

export interface RefreshFacts {
  readonly revoked: boolean;
  /** When the presented token was revoked (its `updatedAt`). */
  readonly revokedAt: Date;
  readonly now: Date;
  readonly rotationEnabled: boolean;
  readonly reuseIntervalMs: number;
  /**
   * Whether the session's active token is the child of the presented token and is the very token
   * `child(presented)` (its hash matches): only then can the same child be answered again.
   */
  readonly activeIsItsChild: boolean;
}

/** Decides the state transition of a refresh; pure so every row of the table is easy to test. */
export function decideRefresh(facts: RefreshFacts): RefreshDecision {
  if (!facts.revoked) return "rotate";
  if (!facts.rotationEnabled) return "refuse";
  const sinceRevocation = facts.now.getTime() - facts.revokedAt.getTime();
  // A client that lost the answer to its last refresh (or two tabs refreshing at once) presents the
  // previous token again shortly after: that is not an attack, so it gets the same child back.
  if (facts.activeIsItsChild && sinceRevocation <= facts.reuseIntervalMs) return "reissue_child";
  // An older token, or the previous one long after: someone else holds a copy of the chain.
  return "revoke_descendants";
}
