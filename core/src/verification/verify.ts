import {
  actorUsername,
  checkNewPassword,
  isBanned,
  normalizeEmail,
  normalizePhone,
  type User,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import {
  err,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionRollingBackOn,
} from "../kernel/index.js";
import {
  type AccountChange,
  type NotifyDeps,
  notifyAccountChange,
  type OneTimeToken,
  type OneTimeTokenType,
} from "../messaging/index.js";
import { emailFlowMethod, issueAuthCode } from "../pkce/index.js";
import { issueSession, type SessionTokens, signOutcome, type Unsigned } from "../sessions/index.js";
import type { VerificationDeps, VerifyStore } from "./deps.js";
import { confirmEmailChange } from "./email-change.js";
import { applyPhoneChange } from "./phone-change.js";
import { otpExpired } from "./steps/save-channel-change.js";
import { applyVerification } from "./steps/verify-apply.js";
import type { VerifyType } from "./verify-type.js";

export interface VerifyInput {
  readonly type: VerifyType;
  /** The code the user typed (with `email` or `phone`). */
  readonly token?: string;
  /** The link token (`token_hash`; also what `GET /verify?token=` carries). */
  readonly tokenHash?: string;
  readonly email?: string;
  readonly phone?: string;
  /** Sets the password of an invited user who has none. */
  readonly password?: string;
  readonly redirectTo?: string;
  /** A followed PKCE link (`pkce_` token): answer the flow's code, the session waits for the exchange. */
  readonly pkce?: boolean;
}

/** A session (or, for a PKCE link, the code to exchange for one), or — halfway through a secure email change — a message for the user. */
export type VerifyOutcome =
  | { kind: "session"; tokens: SessionTokens; type: VerifyType; redirectTo: string }
  | { kind: "code"; code: string; redirectTo: string }
  | { kind: "message"; message: string; redirectTo: string };
/** A verification as its transaction commits it: a session's access token is signed after the commit. */
type Committed = Result<Unsigned<VerifyOutcome>>;

// Which pending tokens a verification type may consume. A magic link sent to an address that was
// never confirmed is a confirmation token; `email` accepts either code a mail may carry.
const TOKEN_TYPES: Readonly<Record<VerifyType, readonly OneTimeTokenType[]>> = {
  signup: ["confirmation_token"],
  invite: ["confirmation_token"],
  magiclink: ["recovery_token", "confirmation_token"],
  recovery: ["recovery_token"],
  email: ["confirmation_token", "recovery_token"],
  email_change: ["email_change_token_new", "email_change_token_current"],
  sms: ["confirmation_token"],
  phone_change: ["phone_change_token"],
};

const isPhoneType = (type: VerifyType) => type === "sms" || type === "phone_change";

type Lookup = { by: "hash"; tokenHash: string } | { by: "otp"; relatesTo: string; otpHash: string };

function lookupOf(deps: Pick<VerificationDeps, "tokens">, input: VerifyInput): Result<Lookup> {
  if (!Object.hasOwn(TOKEN_TYPES, input.type)) return err(failures.verifyTypeUnsupported());
  const { token, tokenHash } = input;
  if (token && tokenHash) return err(failures.verifyTokenOrHash());
  if (!token && !tokenHash) return err(failures.verifyTokenMissing());
  if (tokenHash) {
    if (input.email || input.phone) return err(failures.verifyHashWithAddress());
    return ok({ by: "hash", tokenHash: deps.tokens.hash(tokenHash) });
  }
  const code = (token ?? "").trim();
  const address = isPhoneType(input.type)
    ? normalizePhone(input.phone ?? "")
    : normalizeEmail(input.email ?? "");
  if (!address.ok) return address;
  return ok({ by: "otp", relatesTo: address.value, otpHash: deps.tokens.hash(address.value + code) });
}

/** Whether `token` still belongs to the address the user has now (it may have changed since). */
function boundTo(user: User, token: OneTimeToken, type: VerifyType): boolean {
  switch (token.type) {
    case "phone_change_token":
      return token.relatesTo === user.phoneChange;
    case "email_change_token_new":
      return token.relatesTo === user.emailChange;
    case "email_change_token_current":
      return token.relatesTo === user.email;
    default:
      return token.relatesTo === (type === "sms" ? user.phone : user.email);
  }
}

/**
 * How a token is applied. A typed `email` code is whichever mail carried it, as the reference maps it
 * (`verify.go`): a confirmation token confirms the sign-up — keeping the password chosen at sign-up —
 * and a recovery token is a magic link. A magic link to an unconfirmed address that already has a
 * password comes as a recovery token (`sendMagicLink`), so that proof still clears that password.
 */
function appliedType(
  type: Exclude<VerifyType, "email_change" | "phone_change">,
  token: OneTimeToken,
): Exclude<VerifyType, "email_change" | "phone_change"> {
  if (type !== "email") return type;
  return token.type === "confirmation_token" ? "signup" : "magiclink";
}

type VerifyDeps = Pick<
  VerificationDeps,
  | "clock"
  | "random"
  | "tokens"
  | "hasher"
  | "leakedPasswords"
  | "signer"
  | "settings"
  | "mailer"
  | "deliveries"
> &
  Pick<NotifyDeps, "settings"> & { readonly store: VerifyStore };

/**
 * Verifies an email link or code, or an SMS code (`POST /verify`, `GET /verify`), and signs the user
 * in. The token is consumed atomically — of two concurrent verifications exactly one succeeds — and
 * in the same transaction the channel is confirmed, the change applied and the session issued.
 *
 * Unknown, used, expired (older than `MAILER_OTP_EXP` / `SMS_OTP_EXP`) and misdirected tokens all
 * answer 403 `otp_expired`; an expired token is consumed all the same. A banned user gets 403
 * `user_banned`. A weak `password` for an invitation is refused with nothing consumed.
 */
/** Wrong codes a token survives; the next one deletes it (the user asks for a new code). */
export const MAX_CODE_ATTEMPTS = 5;

export async function verifyOtp(deps: VerifyDeps, input: VerifyInput): Promise<Result<VerifyOutcome>> {
  const lookup = lookupOf(deps, input);
  if (!lookup.ok) return lookup;
  const redirectTo = resolveRedirect(input.redirectTo, {
    siteUrl: deps.settings.siteUrl,
    allowList: deps.settings.uriAllowList,
  });
  const types = TOKEN_TYPES[input.type];
  const now = deps.clock.now();
  // An invitation's password is checked before the transaction: the leaked-password check waits on
  // the network, which must never happen under the user's row lock. Used only if the token accepts
  // an invitation.
  const passwordCheck = input.password ? await checkNewPassword(deps, input.password) : ok(undefined);

  // The notifications of an address change this verification applies, mailed once it has committed.
  const notices: { user: User; change: AccountChange }[] = [];
  const outcome = await transactionRollingBackOn(deps.store, async (repos): Promise<Committed> => {
    const l = lookup.value;
    const token =
      l.by === "hash"
        ? await repos.oneTimeTokens.consumeByTokenHash(l.tokenHash, types)
        : await repos.oneTimeTokens.consumeByOtp(l.relatesTo, l.otpHash, types);
    if (token === null) {
      // A wrong code counts against the tokens sent to that address: after MAX_CODE_ATTEMPTS the token
      // is gone, so a 6-digit code cannot be found by trying them all while it is valid.
      if (l.by === "otp")
        await repos.oneTimeTokens.recordFailedAttempt(l.relatesTo, types, MAX_CODE_ATTEMPTS);
      return err(otpExpired());
    }
    // Returned, not thrown: the consumption commits, so an expired or misdirected token is gone.
    const lifetime = isPhoneType(input.type) ? deps.settings.sms.otpExp : deps.settings.mailer.otpExp;
    if (token.createdAt.getTime() + lifetime * 1000 < now.getTime()) return err(otpExpired());
    const user = await repos.users.lock(token.userId);
    if (user === null || !boundTo(user, token, input.type)) return err(otpExpired());
    if (isBanned(user, now)) return err(failures.userBanned());

    let verified: Result<User>;
    if (input.type === "email_change") {
      const changed = await confirmEmailChange(deps, repos, user, token, now);
      if (!changed.ok) return changed;
      // The first of two confirmations of a secure change: no session until both mailboxes agree.
      if (changed.value.kind === "pending") {
        return ok({ kind: "message", message: changed.value.message, redirectTo });
      }
      verified = ok(changed.value.user);
      if (user.email !== null) notices.push({ user: changed.value.user, change: emailChanged(user.email) });
    } else if (input.type === "phone_change") {
      const hadPhoneIdentity = (await repos.identities.listByUser(user.id)).some(
        (i) => i.provider === "phone",
      );
      verified = await applyPhoneChange(deps, repos, { user, now });
      if (verified.ok) {
        const changed = verified.value;
        notices.push({
          user: changed,
          change: { kind: "phone_changed_notification", oldPhone: user.phone ?? "" },
        });
        if (!hadPhoneIdentity) {
          notices.push({
            user: changed,
            change: { kind: "identity_linked_notification", provider: "phone" },
          });
        }
      }
    } else {
      verified = await applyVerification(deps, repos, user, {
        type: appliedType(input.type, token),
        password: input.password,
        passwordCheck,
        now,
      });
    }
    if (!verified.ok) return verified;
    if (input.pkce) {
      // The sign-in happens at the exchange; without its flow state the link must stay unused.
      const authenticationMethod = emailFlowMethod(input.type);
      const code = orRollback(
        await issueAuthCode(deps, repos, { userId: user.id, authenticationMethod, now }),
      );
      return ok({ kind: "code", code, redirectTo });
    }
    const signedIn: User = { ...verified.value, lastSignInAt: now };
    await repos.users.update(signedIn);
    await repos.audit.record({
      action: "login",
      actorId: user.id,
      actorUsername: actorUsername(signedIn),
      traits: { provider: isPhoneType(input.type) ? "phone" : "email" },
      at: now,
    });
    const tokens = await issueSession(deps, repos, signedIn, "otp", now);
    return ok({ kind: "session", tokens, type: input.type, redirectTo });
  });
  if (!outcome.ok) return outcome;
  for (const { user, change } of notices) await notifyAccountChange(deps, user, change, now);
  // The custom access token hook runs once the verification committed (see signSession).
  return signOutcome(deps, outcome.value);
}

const emailChanged = (oldEmail: string): AccountChange => ({ kind: "email_changed_notification", oldEmail });

export type { VerifyType } from "./verify-type.js";
