import type { Metadata, User } from "../accounts/index.js";
import { actorUsername, normalizeEmail } from "../accounts/index.js";
import { failures } from "../failures.js";
import {
  err,
  Outbox,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionThenSend,
} from "../kernel/index.js";
import { sendEmailToken, tooSoon, undoCreationWith } from "../messaging/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import { answerAlike, holdsUnprovenEmail, resendEmailConfirmation } from "../verification/index.js";
import type { PasswordlessDeps, PasswordlessRepositories } from "./deps.js";
import { findOrCreatePasswordless, vetPasswordless } from "./steps/passwordless-user.js";

/** Seconds between two magic links to one address (docs/http-api.md, Frequency and caps). */
export const MAGIC_LINK_GAP_SECONDS = 60;

export interface SendMagicLinkInput {
  readonly email: string;
  /** `user_metadata` of a user created by this request. */
  readonly data?: Metadata;
  /** Whether an unknown address is signed up (default true). */
  readonly createUser?: boolean;
  readonly redirectTo?: string;
  /** A PKCE flow (`code_challenge`): the mailed link then yields a code for `POST /token?grant_type=pkce`. */
  readonly pkce?: PkceChallenge | null | undefined;
}

type Deps = Pick<
  PasswordlessDeps,
  "store" | "clock" | "random" | "tokens" | "mailer" | "deliveries" | "settings"
>;

/**
 * Mails a sign-in link and code (`POST /magiclink`, `POST /otp` with an email). Answers `{}` whether
 * or not the address had an account, so the answer does not tell.
 *
 * A confirmed user, and an unconfirmed one with a password, gets a magic link (a `recovery_token`), at
 * most one per 60 s per address. An address not yet confirmed and without a password — including one
 * this request signs up — gets its confirmation instead, in a magic-link mail whose link signs in as it confirms (`type=magiclink` accepts both
 * tokens), at most once per `SMTP_MAX_FREQUENCY`. An unknown address with `createUser` false is
 * refused with 422 `otp_disabled` and nothing is created (as the reference
 * does). Sooner than the gap: 429
 * `over_email_send_rate_limit`. These refusals are decided on one read; everything else (creating
 * the user, the token, the mail) follows the answer (`answerAlike`), so that a known and an unknown
 * address take the same time. A mail that cannot be sent is logged and undone (its token, its
 * `*_sent_at`, a user it created).
 */
export async function sendMagicLink(
  deps: Deps,
  input: SendMagicLinkInput,
): Promise<Result<Record<never, never>>> {
  const { signup } = deps.settings;
  if (!signup.emailEnabled) return err(failures.emailLoginsDisabled());
  const email = normalizeEmail(input.email);
  if (!email.ok) return email;
  const redirectTo = resolveRedirect(input.redirectTo, {
    siteUrl: deps.settings.siteUrl,
    allowList: deps.settings.uriAllowList,
  });
  const createUser = input.createUser ?? true;
  const now = deps.clock.now();
  const known = await deps.store.users.findByEmail(email.value);
  if (known === null && (!createUser || signup.disabled)) {
    return err(createUser ? failures.signupDisabled() : failures.otpSignupDisabled());
  }
  const refused =
    known === null
      ? null
      : confirmsByMagicLink(known)
        ? tooSoon(known.confirmationSentAt, deps.settings.mailer.maxFrequency, now, "email")
        : tooSoon(known.magicLinkSentAt, MAGIC_LINK_GAP_SECONDS, now, "email");
  if (refused) return err(refused);
  return answerAlike(deps, now, () =>
    mailMagicLink(deps, { ...input, createUser }, email.value, redirectTo, now),
  );
}

/**
 * Whether a magic link to `user` carries the confirmation token: only for an unconfirmed address
 * without a password. Whoever set a password on an unconfirmed address has not proven the mailbox, so
 * its owner gets a recovery token: a confirmation token keeps the sign-up's password when typed as
 * `email` (`verifyOtp`), a recovery token clears it (pre-account takeover).
 */
const confirmsByMagicLink = (user: User) => user.emailConfirmedAt === null && user.encryptedPassword === null;

/** Creates the user if need be, stores and mails the link (after the answer; the cap already counted). */
async function mailMagicLink(
  deps: Deps,
  input: SendMagicLinkInput & { createUser: boolean },
  email: string,
  redirectTo: string,
  now: Date,
) {
  const { signup } = deps.settings;
  const { createUser } = input;
  const wanted = {
    channel: "email" as const,
    address: email,
    data: input.data ?? {},
    now,
    create: createUser && !signup.disabled,
    confirmed: signup.mailerAutoconfirm,
  };
  // After the answer, like the rest of this delivery: a refusal of the hook is logged, not answered.
  const vetted = await vetPasswordless(deps, wanted);
  if (!vetted.ok) return vetted;
  const outbox = new Outbox<PasswordlessRepositories>({ reserved: true });
  return transactionThenSend(deps.store, outbox, async (repos): Promise<Result<Record<never, never>>> => {
    const found = await findOrCreatePasswordless(deps, repos, { ...wanted, vetted: vetted.value });
    if (found === null) {
      return err(createUser ? failures.signupDisabled() : failures.otpSignupDisabled());
    }
    const { user, created } = found;
    if (holdsUnprovenEmail(user)) return ok({});
    if (created) {
      undoCreationWith(outbox, user.id);
      await repos.audit.record({
        // Like a sign-up: done only once the address is confirmed (at once under autoconfirm).
        action: user.emailConfirmedAt === null ? "user_confirmation_requested" : "user_signedup",
        actorId: user.id,
        actorUsername: actorUsername(user),
        traits: { provider: "email" },
        at: now,
      });
    }
    if (confirmsByMagicLink(user)) {
      const sent = await resendEmailConfirmation(deps, repos, user, {
        redirectTo,
        now,
        magicLink: true,
        outbox,
        pkce: input.pkce,
      });
      return sent.ok ? ok({}) : sent;
    }
    const refused = tooSoon(user.magicLinkSentAt, MAGIC_LINK_GAP_SECONDS, now, "email");
    if (refused) return err(refused);
    const updated: User = { ...user, magicLinkSentAt: now };
    await repos.users.update(updated);
    orRollback(
      await sendEmailToken(deps, repos, {
        user: updated,
        tokenType: "recovery_token",
        mailKind: "magic_link",
        verifyType: "magiclink",
        to: email,
        redirectTo,
        now,
        outbox,
        pkce: input.pkce,
      }),
    );
    return ok({});
  });
}
