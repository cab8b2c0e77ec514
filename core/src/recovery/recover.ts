import type { User } from "../accounts/index.js";
import { actorUsername, lockUserByAddress, normalizeEmail } from "../accounts/index.js";
import {
  err,
  Outbox,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionThenSend,
} from "../kernel/index.js";
import { sendEmailToken, tooSoon } from "../messaging/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import { answerAlike, holdsUnprovenEmail } from "../verification/index.js";
import type { RecoveryDeps, RecoveryRepositories } from "./deps.js";

type Deps = Pick<
  RecoveryDeps,
  "store" | "clock" | "random" | "tokens" | "mailer" | "deliveries" | "settings"
>;

/**
 * Mails a password-recovery link and code (`POST /recover`), verified with `type: "recovery"`, which
 * signs the user in so that they can set a new password. Answers `{}` whether or not the address has
 * an account, after the same work either way (`answerAlike`: one lookup, the cap counted): the
 * token, the stamp and the mail of a known address follow the answer.
 *
 * At most one recovery mail per `SMTP_MAX_FREQUENCY` per address (429 `over_email_send_rate_limit`
 * with the seconds left). `SMTP_MAX_FREQUENCY` is the variable named for the gap between recovery mails, so it is used rather
 * than the fixed 60 s of magic links (docs/http-api.md, Frequency and caps).
 * A mail that cannot be sent is logged, and its token and `recovery_sent_at` are removed again, so
 * asking again works at once.
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
  const found = await deps.store.users.findByEmail(email.value);
  const refused = found && tooSoon(found.recoverySentAt, deps.settings.mailer.maxFrequency, now, "email");
  if (refused) return err(refused);
  return answerAlike(
    deps,
    now,
    found && (() => mailRecovery(deps, email.value, redirectTo, now, input.pkce)),
  );
}

/** Stamps, stores and mails the recovery of `email` (after the answer; the cap already counted). */
function mailRecovery(
  deps: Deps,
  email: string,
  redirectTo: string,
  now: Date,
  pkce: PkceChallenge | null | undefined,
) {
  const outbox = new Outbox<RecoveryRepositories>({ reserved: true });
  return transactionThenSend(deps.store, outbox, async (repos): Promise<Result<Record<never, never>>> => {
    const user = await lockUserByAddress(repos.users, "email", email);
    if (user === null || holdsUnprovenEmail(user)) return ok({});
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
        to: email,
        redirectTo,
        now,
        outbox,
        pkce,
      }),
    );
    return ok({});
  });
}
