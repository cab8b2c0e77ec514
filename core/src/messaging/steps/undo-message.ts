import type { User } from "../../accounts/index.js";
import type { Outbox } from "../../kernel/index.js";
import type { MessagingRepositories } from "../deps.js";
import type { OneTimeTokenType } from "../ports/one-time-tokens.js";

/** The `*_sent_at` stamps a message may have set. */
const SENT_AT_FIELDS = [
  "confirmationSentAt",
  "recoverySentAt",
  "magicLinkSentAt",
  "emailChangeSentAt",
  "phoneChangeSentAt",
  "reauthenticationSentAt",
] as const;

/**
 * Compensates a message that never left (its send failed after the transaction that wrote it had
 * committed): deletes its token — only if it is still the live one, a newer request's stays — and
 * clears the `*_sent_at` stamps written at `sentAt`, so that asking again works at once.
 */
export async function undoMessage(
  repos: MessagingRepositories,
  sent: { userId: string; tokenId: string; tokenType: OneTimeTokenType; sentAt: Date },
): Promise<void> {
  const live = await repos.oneTimeTokens.find(sent.userId, sent.tokenType);
  if (live?.id === sent.tokenId) await repos.oneTimeTokens.deleteForUser(sent.userId, [sent.tokenType]);
  const user = await repos.users.lock(sent.userId);
  if (user === null) return;
  const cleared: { -readonly [K in keyof User]?: User[K] } = {};
  for (const field of SENT_AT_FIELDS) {
    if (user[field]?.getTime() === sent.sentAt.getTime()) cleared[field] = null;
  }
  if (Object.keys(cleared).length > 0) await repos.users.update({ ...user, ...cleared });
}

/**
 * Compensates the creation of a user whose first message never left: the user goes again, unless
 * it was confirmed or signed in meanwhile (then it is someone's account). So a failed sign-up
 * leaves the address free, as if it had not happened (the audit keeps the attempt).
 */
export function undoCreationWith<R extends MessagingRepositories>(outbox: Outbox<R>, userId: string): void {
  outbox.onUndo(async (repos, removedUser) => {
    const user = await repos.users.lock(userId);
    const untouched =
      user !== null &&
      user.emailConfirmedAt === null &&
      user.phoneConfirmedAt === null &&
      user.lastSignInAt === null;
    if (!untouched) return;
    await repos.users.delete(userId);
    removedUser(userId);
  });
}
