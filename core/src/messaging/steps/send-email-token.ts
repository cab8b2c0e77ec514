import type { User } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { type Outbox, ok, type Result } from "../../kernel/index.js";
import { emailFlowMethod, PKCE_PREFIX, type PkceChallenge, startEmailFlow } from "../../pkce/index.js";
import type { MessagingDeps, MessagingRepositories } from "../deps.js";
import type { MailKind, NotificationKind } from "../ports/mailer.js";
import type { OneTimeTokenType } from "../ports/one-time-tokens.js";
import { redirectParam } from "./redirect-param.js";
import { undoMessage } from "./undo-message.js";

/** The `type` a mailed link carries to `/verify`. */
export type EmailVerifyType = "signup" | "invite" | "magiclink" | "recovery" | "email_change";

/** The mail kinds that carry a one-time token (the notifications carry none). */
export type TokenMailKind = Exclude<MailKind, NotificationKind>;
/** The mail kinds that carry a link (every token mail but the reauthentication nonce). */
type LinkMailKind = Exclude<TokenMailKind, "reauthentication">;

export interface SendEmailTokenInput<R extends MessagingRepositories = MessagingRepositories> {
  readonly user: User;
  readonly tokenType: OneTimeTokenType;
  readonly mailKind: TokenMailKind;
  readonly verifyType: EmailVerifyType;
  /** The address the message goes to (and the token is bound to). */
  readonly to: string;
  /** For email change: the address being changed to. */
  readonly newEmail?: string;
  /** Already resolved against SITE_URL and the allow list. */
  readonly redirectTo: string;
  readonly now: Date;
  /** Default true; false builds and stores the token without sending anything (generate_link). */
  readonly send?: boolean;
  /** Where the mail waits until the transaction has committed (`transactionThenSend`); needed to send. */
  readonly outbox?: Outbox<R>;
  /** A PKCE flow: following the link yields a code for this challenge instead of a session. */
  readonly pkce?: PkceChallenge | null | undefined;
}

export interface EmailToken {
  readonly actionLink: string;
  /** The code the user may type instead of following the link. */
  readonly otp: string;
  /** The link token: what a client may pass to `/verify` as `token_hash`. */
  readonly hashedToken: string;
}

/**
 * Creates a one-time email token for `user` (replacing their previous one of `tokenType`) and leaves
 * its mail (link and code, to `to`) in `input.outbox`, to be sent once the caller's transaction has
 * committed (`transactionThenSend`). Only hashes are stored: the link token's, and that of
 * `to + code`. The hourly cap (`RATE_LIMIT_EMAIL_SENT`, shared by all instances, skipped under mailer
 * autoconfirm) is taken then, in one statement of its own: its refusal answers 429
 * `over_email_send_rate_limit`; a refused send `email_send_failed`. Either way the token is removed
 * and the `*_sent_at` stamps of this request cleared (`undoMessage`).
 */
export async function sendEmailToken<R extends MessagingRepositories>(
  deps: Pick<MessagingDeps, "store" | "clock" | "random" | "tokens" | "mailer" | "settings">,
  repos: R,
  input: SendEmailTokenInput<R>,
): Promise<Result<EmailToken>> {
  const { settings } = deps;
  const send = input.send ?? true;
  const relatesTo = input.to.toLowerCase();
  const otp = deps.random.digits(settings.mailer.otpLength);
  // A PKCE link is marked by its prefix (as the reference's), so `GET /verify` answers it with a code.
  const linkToken = (input.pkce ? PKCE_PREFIX : "") + deps.tokens.generate();
  if (input.pkce) {
    const authenticationMethod = emailFlowMethod(input.verifyType);
    await startEmailFlow(deps, repos, {
      userId: input.user.id,
      authenticationMethod,
      challenge: input.pkce,
      now: input.now,
    });
  }
  const tokenId = deps.random.uuid();
  await repos.oneTimeTokens.put({
    id: tokenId,
    userId: input.user.id,
    type: input.tokenType,
    tokenHash: deps.tokens.hash(linkToken),
    otpHash: deps.tokens.hash(relatesTo + otp),
    relatesTo,
    createdAt: input.now,
  });
  const urlPath = settings.mailer.urlPaths[linkPathKind(input.mailKind)];
  const actionLink =
    `${settings.apiExternalUrl}${urlPath}?token=${encodeURIComponent(linkToken)}` +
    `&type=${input.verifyType}&redirect_to=${redirectParam(input.redirectTo)}`;
  if (send) {
    if (input.outbox === undefined) throw new Error("sendEmailToken: sending needs an outbox");
    const mail = {
      kind: input.mailKind,
      to: input.to,
      email: input.user.email ?? input.to,
      confirmationUrl: actionLink,
      token: otp,
      ...(input.newEmail !== undefined ? { newEmail: input.newEmail } : {}),
      user: input.user,
      tokenHash: linkToken,
      redirectTo: input.redirectTo,
    };
    input.outbox.add({
      ...(settings.signup.mailerAutoconfirm ? {} : { reserve: () => takeEmailQuota(deps, input.now) }),
      send: async () => {
        await deps.mailer.send(mail);
        return undefined;
      },
      undo: (undoRepos) =>
        undoMessage(undoRepos, {
          userId: input.user.id,
          tokenId,
          tokenType: input.tokenType,
          sentAt: input.now,
        }),
    });
  }
  return ok({ actionLink, otp, hashedToken: linkToken });
}

/**
 * Counts one email against the hourly cap, in one statement outside any transaction (so no row lock
 * on the counter outlives it); resolves the refusal or null.
 */
export async function takeEmailQuota(
  deps: Pick<MessagingDeps, "store" | "settings">,
  now: Date,
): Promise<ReturnType<typeof failures.emailRateLimit> | null> {
  const allowed = await deps.store.quota.take("email", deps.settings.mailer.rateLimitPerHour, 3_600_000, now);
  return allowed ? null : failures.emailRateLimit();
}

// The reauthentication nonce has no link; should it ever come through here, it links like a confirmation.
const linkPathKind = (kind: TokenMailKind): LinkMailKind =>
  kind === "reauthentication" ? "confirmation" : kind;
