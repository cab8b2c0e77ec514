import { err, ok, type Result } from "../../kernel/index.js";
import { takeEmailQuota } from "../../messaging/index.js";
import type { VerificationDeps } from "../deps.js";

type Deps = Pick<VerificationDeps, "store" | "settings" | "deliveries">;

/**
 * The answer of an endpoint that must not reveal whether an address has an account (`/recover`,
 * `/magiclink`, `/otp`, `/resend`), once its read-only checks passed: the same work on every path —
 * the hourly email cap is counted (one statement; its refusal is 429 `over_email_send_rate_limit`)
 * whether or not a mail will go — and `{}`. What writes and mails (`deliver`, or nothing for an
 * unknown address) runs after the answer on the delivery queue, with the cap already counted; its
 * failure is compensated there and counted, not answered.
 */
export async function answerAlike(
  deps: Deps,
  now: Date,
  deliver: (() => Promise<Result<unknown>>) | null,
): Promise<Result<Record<never, never>>> {
  if (!deps.settings.signup.mailerAutoconfirm) {
    const capped = await takeEmailQuota(deps, now);
    if (capped) return err(capped);
  }
  if (deliver) {
    await deps.deliveries.enqueue(async () => {
      const delivered = await deliver();
      return delivered.ok ? null : delivered.error;
    });
  }
  return ok({});
}
