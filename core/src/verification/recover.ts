import type { User } from "../accounts/index.js";
import { actorUsername, normalizeEmail } from "../accounts/index.js";
import {
  err,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionRollingBackOn,
} from "../kernel/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import type { VerificationDeps } from "./deps.js";
import { tooSoon } from "./steps/frequency.js";
import { sendEmailToken } from "./steps/send-email-token.js";

type Deps = Pick<VerificationDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings">;

/**
 * Mails a password-recovery link and code (`POST /recover`), verified with `type: "recovery"`, which
 * signs the user in so that they can set a new password. Answers `{}` whether or not the address has
 * an account: an unknown address runs the same lookup in the same transaction and sends nothing.
 *
 * At most one recovery mail per `SMTP_MAX_FREQUENCY` per address (429 `over_email_send_rate_limit`
 * with the seconds left). The spec's limits table says 60 s for recovery, but its configuration table
 * names `SMTP_MAX_FREQUENCY` as the gap between recovery mails; the named, configurable variable wins.
 * A mail that cannot be sent rolls back the token and `recovery_sent_at`, so asking again works.
 */
export async function recoverPassword(
  deps: Deps,
  input: { email: string; redirectTo?: string; pkce?: PkceChallenge | null | undefined },
): Promise<Result<Record<never, never>>> {
  const email = normalizeEmail(input.email);
  if (!email.ok) return email;
  const redirectTo = resolveRedirect(input.redirectTo, {
    siteUrl: deps.settings.siteUrl,
    allowList: deps.settings.uriAllowList,
  });
  const now = deps.clock.now();

  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Record<never, never>>> => {
    const found = await repos.users.findByEmail(email.value);
    const user = found && (await repos.users.lock(found.id));
    if (user === null) return ok({});
    const refused = tooSoon(user.recoverySentAt, deps.settings.mailer.maxFrequency, now, "email");
    if (refused) return err(refused);
    const updated: User = { ...user, recoverySentAt: now };
    await repos.users.update(updated);
    await repos.audit.record({
      action: "user_recovery_requested",
      actorId: user.id,
      actorUsername: actorUsername(user),
      at: now,
    });
    orRollback(
      await sendEmailToken(deps, repos, {
        user: updated,
        tokenType: "recovery_token",
        mailKind: "recovery",
        verifyType: "recovery",
        to: email.value,
        redirectTo,
        now,
        pkce: input.pkce,
      }),
    );
    return ok({});
  });
}
