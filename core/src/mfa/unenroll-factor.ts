import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { MfaDeps } from "./deps.js";
import { callerSession } from "./steps/caller.js";
import { amrMethodOf, ownedFactor } from "./steps/factor-rules.js";

/**
 * `DELETE /factors/{id}`: removes a factor of the caller. A verified factor needs an aal2 session
 * (422 `insufficient_aal`); the sessions it raised fall back to aal1 and lose its method.
 */
export async function unenrollFactor(
  deps: Pick<MfaDeps, "store" | "clock">,
  input: { user: User; sessionId: string | null; factorId: string },
): Promise<Result<{ id: string }>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<{ id: string }>> => {
    const session = await callerSession(repos, input.sessionId);
    if (!session.ok) return session;
    const found = await ownedFactor(repos, input.user.id, input.factorId);
    if (!found.ok) return found;
    const factor = found.value;
    if (factor.status === "verified" && session.value.aal !== "aal2")
      return err(failures.unenrollNeedsAal2());
    // Lowered before the delete, which clears the sessions' reference to the factor.
    await repos.assurance.lowerRaisedBy(factor.id, amrMethodOf(factor), now);
    await repos.factors.delete(factor.id);
    await repos.audit.record({
      action: "factor_unenrolled",
      actorId: input.user.id,
      actorUsername: input.user.phone || input.user.email || "",
      traits: { factor_id: factor.id, factor_status: factor.status, session_id: session.value.id },
      at: now,
    });
    return ok({ id: factor.id });
  });
}
