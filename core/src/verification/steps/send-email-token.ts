import type { User } from "../../accounts/index.js";
import { err, failures, ok, type Result } from "../../kernel/index.js";
import { emailFlowMethod, PKCE_PREFIX, type PkceChallenge, startEmailFlow } from "../../pkce/index.js";
import type { VerificationDeps, VerificationRepositories } from "../deps.js";
import type { MailKind } from "../ports/mailer.js";
import type { OneTimeTokenType } from "../ports/one-time-tokens.js";

/** The `type` a mailed link carries to `/verify`. */
export type EmailVerifyType = "signup" | "invite" | "magiclink" | "recovery" | "email_change";

/** The mail kinds that carry a link (everything but the reauthentication nonce). */
type LinkMailKind = Exclude<MailKind, "reauthentication">;

export interface SendEmailTokenInput {
  readonly user: User;
  readonly tokenType: OneTimeTokenType;
  readonly mailKind: MailKind;
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
 * Creates a one-time email token for `user` (replacing their previous one of `tokenType`) and mails
 * its link and code to `to`. Only hashes are stored: the link token's, and that of `to + code`.
 *
 * Call it inside the use case's transaction, after the use case's own writes: a refused send rejects
 * with an `AuthError` (`email_send_failed`), which the caller lets propagate so that the transaction
 * rolls back and no usable token of a mail that never left remains. The hourly cap
 * (`RATE_LIMIT_EMAIL_SENT`, shared by all instances, skipped under mailer autoconfirm) is checked
 * first; its refusal is returned as 429 `over_email_send_rate_limit` before anything is stored.
 */
export async function sendEmailToken(
  deps: Pick<VerificationDeps, "clock" | "random" | "tokens" | "mailer" | "settings">,
  repos: VerificationRepositories,
  input: SendEmailTokenInput,
): Promise<Result<EmailToken>> {
  const { settings } = deps;
  const send = input.send ?? true;
  if (send && !settings.signup.mailerAutoconfirm) {
    const allowed = await repos.quota.take("email", settings.mailer.rateLimitPerHour, 3_600_000, input.now);
    if (!allowed) return err(failures.emailRateLimit());
  }
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
  await repos.oneTimeTokens.put({
    id: deps.random.uuid(),
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
    `&type=${input.verifyType}&redirect_to=${encodeURIComponent(input.redirectTo)}`;
  if (send) {
    await deps.mailer.send({
      kind: input.mailKind,
      to: input.to,
      email: input.user.email ?? input.to,
      confirmationUrl: actionLink,
      token: otp,
      ...(input.newEmail !== undefined ? { newEmail: input.newEmail } : {}),
    });
  }
  return ok({ actionLink, otp, hashedToken: linkToken });
}

// The reauthentication nonce has no link; should it ever come through here, it links like a confirmation.
const linkPathKind = (kind: MailKind): LinkMailKind => (kind === "reauthentication" ? "confirmation" : kind);
