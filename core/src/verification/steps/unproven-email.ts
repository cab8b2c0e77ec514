import type { User } from "../../accounts/index.js";

/**
 * Whether `user`, an account confirmed by phone, holds its email unconfirmed (an address taken from a
 * linked identity whose provider did not vouch for it, say). Whoever owns that mailbox is not known to
 * own the account: a sign-in mail to it (magic link, recovery, a sign-up's confirmation) would let the
 * mailbox's owner into someone else's account, so none is sent. The account's own confirmation of
 * the address (`/resend`, the mail of the link) still goes.
 */
export const holdsUnprovenEmail = (user: Pick<User, "emailConfirmedAt" | "phoneConfirmedAt">): boolean =>
  user.emailConfirmedAt === null && user.phoneConfirmedAt !== null;
