import type { Factor, User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import { type NotifyDeps, notifyAccountChange } from "../messaging/index.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import { callerSession } from "./steps/caller.js";
import { amrMethodOf, ownedFactor } from "./steps/factor-rules.js";

/**
 * `DELETE /factors/{id}`: removes a factor of the caller. A verified factor needs an aal2 session
 * (422 `insufficient_aal`); the sessions it raised fall back to aal1 and lose its method. Once that
 * has committed, the removal of a verified factor is notified
 * (`MAILER_NOTIFICATIONS_MFA_FACTOR_UNENROLLED_ENABLED`); an unverified one was never announced as
 * added, so its removal is not either.
 */
export async function unenrollFactor(
  deps: Pick<MfaDeps, "store" | "clock" | "mailer" | "deliveries"> & Pick<NotifyDeps, "settings">,
  input: { user: User; sessionId: string | null; factorId: string },
): Promise<Result<{ id: string }>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  const now = deps.clock.now();
  const removed: string[] = [];
  const result = await transactionRollingBackOn(
    deps.store,
    async (repos): Promise<Result<{ id: string }>> => {
      const session = await callerSession(repos, input.sessionId);
      if (!session.ok) return session;
      const found = await ownedFactor(repos, input.user.id, input.factorId);
      if (!found.ok) return found;
      const factor = found.value;
      if (factor.factorType === "recovery_code") return err(failures.recoveryCodeFactorManaged());
      if (factor.status === "verified" && session.value.aal !== "aal2")
        return err(failures.unenrollNeedsAal2());
      if (factor.status === "verified" && (await leavesRecoveryCodesAlone(repos, factor))) {
        return err(failures.recoveryCodesLastFactor());
      }
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
      if (factor.status === "verified") removed.push(factor.factorType);
      return ok({ id: factor.id });
    },
  );
  for (const factorType of removed) {
    await notifyAccountChange(
      deps,
      input.user,
      { kind: "mfa_factor_unenrolled_notification", factorType },
      now,
    );
  }
  return result;
}

/**
 * Whether removing `factor` would leave the user's recovery codes as their only verified factor:
 * recovery codes stand in for a lost factor, never for having none.
 */
async function leavesRecoveryCodesAlone(repos: MfaRepositories, factor: Factor): Promise<boolean> {
  const factors = await repos.factors.listByUser(factor.userId);
  const hasCodes = factors.some((f) => f.factorType === "recovery_code");
  const others = factors.filter(
    (f) => f.id !== factor.id && f.status === "verified" && f.factorType !== "recovery_code",
  );
  return hasCodes && others.length === 0;
}
