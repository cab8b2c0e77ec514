import {
  actorUsername,
  blankUser,
  checkNewPassword,
  confirmedAt,
  createUser,
  type Identity,
  type Metadata,
  normalizeEmail,
  normalizePhone,
  type User,
  type UserWithIdentities,
  withoutExternalIdentities,
} from "../accounts/index.js";
import { failures } from "../failures.js";
import { beforeUserCreated, userToCreate, vetNewUser } from "../hooks/index.js";
import {
  err,
  Outbox,
  ok,
  orRollback,
  type Result,
  resolveRedirect,
  transactionThenSend,
} from "../kernel/index.js";
import {
  type SmsChannel,
  sendEmailToken,
  sendSmsToken,
  takeEmailQuota,
  tooSoon,
  undoCreationWith,
} from "../messaging/index.js";
import type { PkceChallenge } from "../pkce/index.js";
import { issueSession, type SessionTokens, signOutcome, type Unsigned } from "../sessions/index.js";
import { messageChannel, resendEmailConfirmation, resendSmsConfirmation } from "../verification/index.js";
import type { SignupDeps, SignupRepositories } from "./deps.js";
import { signUpAnonymously } from "./sign-up-anonymously.js";
import type { Committed, SignUpDeps, SignUpOutcome } from "./sign-up-outcome.js";

export type { SignUpOutcome } from "./sign-up-outcome.js";

export interface SignUpInput {
  readonly email?: string;
  readonly phone?: string;
  readonly password?: string;
  readonly data?: Record<string, unknown>;
  /** Where the confirmation link leads (`redirect_to`); SITE_URL unless it is allowed. */
  readonly redirectTo?: string;
  /** A PKCE flow (`code_challenge`): the mailed link then yields a code for `POST /token?grant_type=pkce`. */
  readonly pkce?: PkceChallenge | null | undefined;
  /** How a phone's confirmation code goes: `sms` (default) or `whatsapp` (see `messageChannel`). */
  readonly channel?: string | undefined;
}

type Channel = "email" | "phone";

/**
 * Registers a user by email or phone with a password, or — with neither — an anonymous user.
 *
 * A duplicate sign-up answers a fake user built exactly like a real new one, after the same password
 * work (a hash, or for an account never confirmed the check of its password), and writes nothing but
 * the audit entry (and, for an owner who never confirmed, a new confirmation, at most once per
 * `SMTP_MAX_FREQUENCY` / `SMS_MAX_FREQUENCY`, and the removal of a password it holds that this
 * sign-up did not give and of its external identities: see `dropUnproven`) — unless the channel autoconfirms, where the
 * client would get a session and so is told (`user_already_exists`).
 *
 * The answer's `identities`, as the reference's: a new user's (and an unconfirmed owner's, who is
 * mailed as a new user would be) holds the email or phone identity; a confirmed address's is empty,
 * which Supabase tells apps to read as "already registered". With `signup.hideExisting` every answer's
 * is empty, so that the answer never tells whether an address is taken.
 *
 * Confirmations go out once the transaction has committed. A confirmation mail is delivered after the
 * answer (`deliveries`), so that a new and a known address take the same time; one that cannot be
 * sent is logged and its token removed (the unconfirmed user stays, and signing up again, or
 * `/resend`, mails a new one at once). An SMS is sent before the answer: a gateway refusal answers
 * `sms_send_failed` and removes its code, and asking again works. The hourly email cap is taken
 * before the answer: 429 `over_email_send_rate_limit`.
 */
export async function signUp(deps: SignUpDeps, input: SignUpInput): Promise<Result<SignUpOutcome>> {
  const { email, phone, password } = input;
  if (!email && !phone) return signUpAnonymously(deps, input.data ?? {});
  if (email && phone) {
    return err(failures.signupEmailOrPhone());
  }
  const { signup } = deps.settings;
  if (signup.disabled) return err(failures.signupDisabled());
  const channel: Channel = email ? "email" : "phone";
  if (channel === "email" && !signup.emailEnabled) {
    return err(failures.emailSignupsDisabled());
  }
  if (channel === "phone" && !signup.phoneEnabled) {
    return err(failures.phoneSignupsDisabled());
  }
  const smsChannel =
    channel === "phone" ? messageChannel(deps.settings.sms, input.channel) : ok("sms" as const);
  if (!smsChannel.ok) return smsChannel;
  if (!password) return err(failures.signupPasswordRequired());
  const address = channel === "email" ? normalizeEmail(email ?? "") : normalizePhone(phone ?? "");
  if (!address.ok) return address;
  const strength = await checkNewPassword(deps, password);
  if (!strength.ok) return strength;

  const findExisting = (repos: Pick<SignupRepositories, "users">) =>
    channel === "email" ? repos.users.findByEmail(address.value) : repos.users.findByPhone(address.value);
  // One password computation on every path, duplicates included, so that timing does not reveal a
  // taken address: the hash of a new user's, or the check of an account never confirmed against the
  // password it was signed up with (see repeatedSignUp).
  const owner = await findExisting(deps.store);
  const unproven = owner !== null && confirmedAt(owner) === null ? owner.encryptedPassword : null;
  const checked =
    unproven === null ? null : { hash: unproven, matches: await deps.hasher.verify(unproven, password) };
  const hash = checked === null ? await deps.hasher.hash(password) : null;
  const now = deps.clock.now();
  const autoconfirm = channel === "email" ? signup.mailerAutoconfirm : signup.smsAutoconfirm;
  const redirectTo = resolveRedirect(input.redirectTo, {
    siteUrl: deps.settings.siteUrl,
    allowList: deps.settings.uriAllowList,
  });
  const outbox = new Outbox<SignupRepositories>(channel === "email" ? { later: deps.deliveries } : {});
  const fields: NewUserFields = {
    channel,
    address: address.value,
    data: input.data ?? {},
    hash,
    checked,
    now,
    redirectTo,
    outbox,
    pkce: input.pkce ?? null,
    smsChannel: smsChannel.value,
  };

  // The before-user-created hook vets the user to be created before the transaction (as the
  // reference does), so that a hook over HTTP never holds it open; only for an address not taken.
  const build = () => newUser(deps, deps.random.uuid(), fields, autoconfirm);
  const vetted = await vetNewUser(deps, async () => (await findExisting(deps.store)) !== null, build);
  if (!vetted.ok) return vetted;

  const outcome = await transactionThenSend(deps.store, outbox, async (repos): Promise<Committed> => {
    const existing = await findExisting(repos);
    if (existing !== null) return repeatedSignUp(deps, repos, existing, fields, autoconfirm);
    // The account seen before the transaction went meanwhile: this sign-up's password is hashed now.
    if (fields.hash === null) fields.hash = await deps.hasher.hash(password);
    const user = userToCreate(deps, vetted.value, build);
    const identity = identityOf(deps, user, fields, autoconfirm);
    const inserted = await createUser(deps, repos, user, { now, identities: [identity] });
    if (!inserted.created) {
      if (inserted.clash === "duplicate_id") {
        throw new Error("signUp: a random user id collided with an existing one");
      }
      // A concurrent sign-up with the same address won the race: answer as for any duplicate.
      const winner = await findExisting(repos);
      if (winner === null) {
        throw new Error(`signUp: insert reported ${inserted.clash} but no such user exists`);
      }
      return repeatedSignUp(deps, repos, winner, fields, autoconfirm);
    }
    if (!autoconfirm) undoCreationWith(outbox, user.id);
    const actor = { actorId: user.id, actorUsername: actorUsername(user), traits: { provider: channel } };
    // As the reference: the sign-up counts as done when the address is confirmed (`/verify` records
    // `user_signedup` then); until that it is a confirmation request.
    const action = autoconfirm ? "user_signedup" : "user_confirmation_requested";
    await repos.audit.record({ action, ...actor, at: now });
    if (autoconfirm) {
      await repos.audit.record({ action: "login", ...actor, at: now });
      return ok({ kind: "session", tokens: await issueSession(deps, repos, user, "password", now) });
    }
    // confirmationSentAt is already set on the new user; a refused send throws and rolls it back.
    if (channel === "email") {
      orRollback(
        await sendEmailToken(deps, repos, {
          user,
          tokenType: "confirmation_token",
          mailKind: "confirmation",
          verifyType: "signup",
          to: address.value,
          redirectTo,
          now,
          outbox,
          pkce: fields.pkce,
        }),
      );
    } else {
      orRollback(
        await sendSmsToken(deps, repos, {
          user,
          tokenType: "confirmation_token",
          phone: address.value,
          now,
          outbox,
          channel: fields.smsChannel,
        }),
      );
    }
    return ok({ kind: "user", user: answered(deps, user, identity) });
  });
  // The custom access token hook runs once the sign-up committed (see signSession).
  return outcome.ok ? signOutcome(deps, outcome.value) : outcome;
}

/**
 * The user a sign-up answers, with the identity a new user has, or none for an address already
 * `registered` and, when the answer must not tell (`hideExisting`), for every address.
 */
function answered(
  deps: Pick<SignupDeps, "settings">,
  user: User,
  identity: Identity,
  registered = false,
): UserWithIdentities {
  const hidden = registered || deps.settings.signup.hideExisting;
  return { ...user, identities: hidden ? [] : [identity] };
}

interface NewUserFields {
  readonly channel: Channel;
  /** Normalised email (lowercase) or phone (digits). */
  readonly address: string;
  readonly data: Metadata;
  /** The password's hash; null until needed when the address had an account (see `checked`). */
  hash: string | null;
  /** An account never confirmed: whether this sign-up's password is the one it holds (`hash`). */
  readonly checked: { readonly hash: string; readonly matches: boolean } | null;
  readonly now: Date;
  readonly redirectTo: string;
  /** Where the confirmation waits until the sign-up has committed. */
  readonly outbox: Outbox<SignupRepositories>;
  readonly pkce: PkceChallenge | null;
  /** How a phone's code goes. */
  readonly smsChannel: SmsChannel;
}

/** A new email/phone user; also the template of the fake user answered for a duplicate. */
function newUser(deps: Pick<SignupDeps, "settings">, id: string, f: NewUserFields, confirmed: boolean): User {
  return blankUser({
    id,
    aud: deps.settings.jwt.aud,
    role: deps.settings.jwt.defaultRole,
    createdAt: f.now,
    ...(f.channel === "email" ? { email: f.address } : { phone: f.address }),
    encryptedPassword: f.hash,
    userMetadata: f.data,
    appMetadata: { provider: f.channel, providers: [f.channel] },
    emailConfirmedAt: confirmed && f.channel === "email" ? f.now : null,
    phoneConfirmedAt: confirmed && f.channel === "phone" ? f.now : null,
    confirmationSentAt: confirmed ? null : f.now,
    lastSignInAt: confirmed ? f.now : null,
  });
}

function identityOf(
  deps: Pick<SignupDeps, "random">,
  user: User,
  f: NewUserFields,
  confirmed: boolean,
): Identity {
  return {
    id: deps.random.uuid(),
    providerId: user.id,
    userId: user.id,
    provider: f.channel,
    identityData: {
      sub: user.id,
      [f.channel]: f.address,
      // Autoconfirm verifies the address at once, as the reference's confirmation does.
      email_verified: confirmed && f.channel === "email",
      phone_verified: confirmed && f.channel === "phone",
    },
    lastSignInAt: confirmed ? f.now : null,
    createdAt: f.now,
    updatedAt: f.now,
  };
}

/** Answers a sign-up for an address that already has an account (see `signUp`). */
async function repeatedSignUp(
  deps: SignUpDeps,
  repos: SignupRepositories,
  existing: User,
  f: NewUserFields,
  autoconfirm: boolean,
): Promise<Committed> {
  await repos.audit.record({
    action: "user_repeated_signup",
    actorId: existing.id,
    actorUsername: actorUsername(existing),
    traits: { provider: f.channel },
    at: f.now,
  });
  // Returned from the transaction, so the audit entry commits with the refusal.
  if (autoconfirm) return err(failures.userAlreadyRegistered());
  await dropUnproven(repos, existing, f);
  // The owner may have lost the first message; the caller cannot tell this from a new sign-up. Inside
  // the resend gap nothing is sent, silently: a 429 here would tell the caller the address is known.
  const gap = f.channel === "email" ? deps.settings.mailer.maxFrequency : deps.settings.sms.maxFrequency;
  const confirmed = (f.channel === "email" ? existing.emailConfirmedAt : existing.phoneConfirmedAt) !== null;
  const fake = () => {
    const user = newUser(deps, deps.random.uuid(), f, false);
    return answered(deps, user, identityOf(deps, user, f, false), confirmed);
  };
  // An account confirmed by its other channel holds this address or number unproven (taken from a
  // linked identity its provider did not vouch for): the account is someone's, not necessarily the
  // owner's of this address, so its confirmation would sign them into it. Nothing is sent.
  const confirmedOtherwise = !confirmed && confirmedAt(existing) !== null;
  const resend =
    !confirmedOtherwise &&
    tooSoon(existing.confirmationSentAt, gap, f.now, f.channel === "email" ? "email" : "sms") === null;
  if (resend && f.channel === "email" && existing.emailConfirmedAt === null && existing.email !== null) {
    const locked = await repos.users.lock(existing.id);
    if (locked === null) throw new Error(`signUp: user ${existing.id} vanished`);
    const resent = await resendEmailConfirmation(deps, repos, locked, {
      redirectTo: f.redirectTo,
      now: f.now,
      outbox: f.outbox,
      pkce: f.pkce,
    });
    if (!resent.ok) return resent;
  }
  if (resend && f.channel === "phone" && existing.phoneConfirmedAt === null && existing.phone !== null) {
    const locked = await repos.users.lock(existing.id);
    if (locked === null) throw new Error(`signUp: user ${existing.id} vanished`);
    const resent = await resendSmsConfirmation(deps, repos, locked, f.now, f.outbox, f.smsChannel);
    if (!resent.ok) return resent;
  }
  if (f.channel === "email" && f.outbox.size === 0) {
    // No mail for this address, but the same work as a new one: its mail's count against the cap.
    f.outbox.add({
      reserve: () => takeEmailQuota(deps, f.now),
      send: async () => undefined,
      undo: async () => {},
    });
  }
  return ok({ kind: "user", user: fake() });
}

/**
 * Pre-account takeover: an account nobody has confirmed holds the password of whoever signed up with
 * the address first, not necessarily its owner's. When a sign-up with another password comes, that
 * password goes (and any session made with it), so that the owner confirming the address — by the
 * resent confirmation, whose `signup` type keeps the sign-up's password — does not confirm an account
 * someone else can sign into; the owner, signed in by the confirmation, sets a password. A sign-up
 * with the same password (the owner trying again) keeps it. Identities of external providers go in
 * any case (none vouched for the address, or the account would be confirmed).
 */
async function dropUnproven(repos: SignupRepositories, existing: User, f: NewUserFields) {
  if (confirmedAt(existing) !== null) return;
  const locked = await repos.users.lock(existing.id);
  if (locked === null || confirmedAt(locked) !== null) return;
  const samePassword = f.checked?.matches === true && f.checked.hash === locked.encryptedPassword;
  const dropPassword = locked.encryptedPassword !== null && !samePassword;
  // An identity of a provider that did not vouch for the address opened this account: its holder
  // would sign into what the owner confirms. It goes as well (the external sign-in's `keepOnly`,
  // the other way round).
  const withoutIdentities = await withoutExternalIdentities(repos.identities, locked);
  if (!dropPassword && withoutIdentities === null) return;
  await repos.users.update({
    ...(withoutIdentities ?? locked),
    encryptedPassword: dropPassword ? null : locked.encryptedPassword,
    updatedAt: f.now,
  });
  await repos.sessions.deleteForUser(locked.id);
}
