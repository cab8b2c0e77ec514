import type { User } from "../accounts/index.js";
import { actorUsername } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, Outbox, ok, type Result, transactionThenSend } from "../kernel/index.js";
import { tooSoon, undoMessage } from "../messaging/index.js";
import type { AccountSettingsDeps, AccountSettingsRepositories } from "./deps.js";

type Deps = Pick<
  AccountSettingsDeps,
  "store" | "clock" | "random" | "tokens" | "mailer" | "sms" | "settings"
>;

/** Where the nonce goes: the email when the user has one (as the reference), else the phone. */
type Channel = { kind: "email"; address: string } | { kind: "sms"; address: string };

/** The channel of `user`'s nonce, or the refusal when there is none or it is unconfirmed. */
function channelOf(user: User): Result<Channel> {
  if (user.email !== null) {
    if (user.emailConfirmedAt === null) {
      return err(failures.reauthenticationEmailNotConfirmed());
    }
    return ok({ kind: "email", address: user.email });
  }
  if (user.phone !== null) {
    if (user.phoneConfirmedAt === null) {
      return err(failures.reauthenticationPhoneNotConfirmed());
    }
    return ok({ kind: "sms", address: user.phone });
  }
  // 422, as for the other reauthentication refusals (the reference has answered both 400 and 422).
  return err(failures.reauthenticationNoAddress());
}

/**
 * How long a reauthentication nonce stays valid: the lifetime of a code on the channel it was sent on
 * (`MAILER_OTP_EXP` by email, `SMS_OTP_EXP` by SMS), as the reference checks it.
 */
export function nonceLifetimeSeconds(
  settings: AccountSettingsDeps["settings"],
  user: Pick<User, "email" | "phone">,
): number {
  return user.email !== null ? settings.mailer.otpExp : settings.sms.otpExp;
}

/**
 * Sends the signed-in user a reauthentication nonce (`GET /reauthenticate`), which a password update
 * must then present when `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION` is on.
 *
 * The nonce is a code of the channel's OTP length, mailed (`reauthentication` mail, code only, no link)
 * when the user has an email, else texted ("Your code is N"); `{ messageId }` when it went by SMS.
 * Only hashes are kept: `reauthentication_token` on the user (what `updateUser` checks) and a
 * one-time token bound to the address. Refusals: no email nor phone (400 `validation_failed`), the
 * address unconfirmed (422 `email_not_confirmed` / `phone_not_confirmed`), a nonce sent less than the
 * channel's max frequency ago (429). A send that fails rolls back the nonce and is answered as an error.
 */
export async function reauthenticate(
  deps: Deps,
  input: { userId: string },
): Promise<Result<{ messageId?: string }>> {
  const now = deps.clock.now();
  const outbox = new Outbox<AccountSettingsRepositories>();
  const sent = await transactionThenSend(deps.store, outbox, async (repos): Promise<Result<boolean>> => {
    const user = await repos.users.lock(input.userId);
    if (user === null) return err(failures.userNotFound());
    const channel = channelOf(user);
    if (!channel.ok) return channel;
    const { settings } = deps;
    const gap = channel.value.kind === "email" ? settings.mailer.maxFrequency : settings.sms.maxFrequency;
    const refused = tooSoon(user.reauthenticationSentAt, gap, now, channel.value.kind);
    if (refused) return err(refused);
    const { nonce, tokenId } = await storeNonce(deps, repos, user, channel.value, now);
    await repos.audit.record({
      action: "user_reauthenticate_requested",
      actorId: user.id,
      actorUsername: actorUsername(user),
      at: now,
    });
    // Sent once committed; a send that fails takes the nonce back (`undo`) and is answered.
    const { address, kind } = channel.value;
    outbox.add({
      send: async () => {
        if (kind === "sms") {
          return (await deps.sms.send(address, `Your code is ${nonce}`, { otp: nonce, user })).messageId;
        }
        await deps.mailer.send({ kind: "reauthentication", to: address, email: address, token: nonce, user });
        return undefined;
      },
      undo: async (undoRepos) => {
        const sentAt = now;
        await undoMessage(undoRepos, {
          userId: user.id,
          tokenId,
          tokenType: "reauthentication_token",
          sentAt,
        });
        const current = await undoRepos.users.lock(user.id);
        if (current !== null && current.reauthenticationSentAt === null) {
          await undoRepos.users.update({ ...current, reauthenticationToken: null });
        }
      },
    });
    return ok(kind === "sms");
  });
  if (!sent.ok) return sent;
  return ok(sent.value ? { messageId: outbox.messageId } : {});
}

/** Draws the nonce and stores its hashes (on the user and as a one-time token); returns the nonce. */
async function storeNonce(
  deps: Pick<AccountSettingsDeps, "random" | "tokens" | "settings">,
  repos: AccountSettingsRepositories,
  user: User,
  channel: Channel,
  now: Date,
): Promise<{ nonce: string; tokenId: string }> {
  const { settings } = deps;
  const nonce = deps.random.digits(
    channel.kind === "email" ? settings.mailer.otpLength : settings.sms.otpLength,
  );
  const updated: User = {
    ...user,
    reauthenticationToken: deps.tokens.hash(nonce),
    reauthenticationSentAt: now,
  };
  if ((await repos.users.update(updated)) !== "updated") {
    throw new Error(`reauthenticate: user ${user.id} could not be updated`);
  }
  const tokenId = deps.random.uuid();
  await repos.oneTimeTokens.put({
    id: tokenId,
    userId: user.id,
    type: "reauthentication_token",
    // A nonce has no link: the link hash is of a random token nobody is given.
    tokenHash: deps.tokens.hash(deps.tokens.generate()),
    otpHash: deps.tokens.hash(channel.address + nonce),
    relatesTo: channel.address,
    createdAt: now,
  });
  return { nonce, tokenId };
}
