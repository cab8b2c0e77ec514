import type { Factor, User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, Outbox, ok, type Result, transactionThenSend } from "../kernel/index.js";
import type { CredentialRef } from "../passkeys/index.js";
import type { Challenge } from "./challenge.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import { ownedFactor, verifyEnabled } from "./steps/factor-rules.js";
import { smsCodeText } from "./steps/sms-text.js";

export interface ChallengeFactorInput {
  readonly user: User;
  readonly factorId: string;
  /** The caller's address: only it may verify the challenge. */
  readonly ipAddress: string;
  /** Phone: how the code travels; only `sms` is offered. */
  readonly channel?: string | undefined;
}

export interface Challenged {
  readonly id: string;
  readonly type: Factor["factorType"];
  /** Unix seconds. */
  readonly expiresAt: number;
  /** WebAuthn: options to create the factor's credential (unverified) or to sign with it (verified). */
  readonly webauthn?: {
    readonly type: "create" | "request";
    readonly options: Readonly<Record<string, unknown>>;
  };
}

type Deps = Pick<MfaDeps, "store" | "clock" | "random" | "settings" | "secretBox" | "sms" | "webauthn">;

/**
 * `POST /factors/{id}/challenge`: a challenge the next verification answers, valid for
 * `MFA_CHALLENGE_EXPIRY_DURATION` from the caller's address only. A phone factor's code is texted
 * once the challenge has committed (at most one per `MFA_PHONE_MAX_FREQUENCY`, and counted against
 * `RATE_LIMIT_SMS_SENT`); a refused text removes the challenge again.
 */
export async function challengeFactor(deps: Deps, input: ChallengeFactorInput): Promise<Result<Challenged>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  const now = deps.clock.now();
  const outbox = new Outbox<MfaRepositories>();
  return transactionThenSend(deps.store, outbox, async (repos): Promise<Result<Challenged>> => {
    const found = await ownedFactor(repos, input.user.id, input.factorId);
    if (!found.ok) return found;
    const factor = found.value;
    const enabled = verifyEnabled(deps, factor);
    if (!enabled.ok) return enabled;
    const challenge: Challenge = {
      id: deps.random.uuid(),
      factorId: factor.id,
      createdAt: now,
      verifiedAt: null,
      ipAddress: input.ipAddress,
      otpCode: null,
      attempts: 0,
    };
    let ceremony: Challenged["webauthn"];
    if (factor.factorType === "phone") {
      const texted = textCode(deps, factor, challenge, { channel: input.channel, now, outbox });
      if (!texted.ok) return texted;
      await repos.challenges.insert(texted.value);
    } else if (factor.factorType === "webauthn") {
      const made = await webauthnCeremony(deps, repos, input.user, factor);
      ceremony = { type: made.type, options: made.options };
      await repos.challenges.insert({ ...challenge, webauthnState: made.state });
    } else {
      await repos.challenges.insert(challenge);
    }
    await repos.factors.update({ ...factor, lastChallengedAt: now });
    await repos.audit.record({
      action: "challenge_created",
      actorId: input.user.id,
      actorUsername: input.user.phone || input.user.email || "",
      traits: { factor_id: factor.id, factor_status: factor.status },
      at: now,
    });
    return ok({
      id: challenge.id,
      type: factor.factorType,
      expiresAt: Math.floor(now.getTime() / 1000) + deps.settings.mfa.challengeExpiry,
      ...(ceremony ? { webauthn: ceremony } : {}),
    });
  });
}

/**
 * Draws the phone factor's code, seals it into the challenge and leaves its text in the outbox.
 * Refuses a challenge sooner than `MFA_PHONE_MAX_FREQUENCY` after the previous one.
 */
function textCode(
  deps: Deps,
  factor: Factor,
  challenge: Challenge,
  context: { channel: string | undefined; now: Date; outbox: Outbox<MfaRepositories> },
): Result<Challenge> {
  const { channel, now, outbox } = context;
  if (channel !== undefined && channel !== "" && channel !== "sms")
    return err(failures.smsChannelUnsupported());
  const { phone: settings } = deps.settings.mfa;
  if (factor.lastChallengedAt !== null) {
    const waitMs = factor.lastChallengedAt.getTime() + settings.maxFrequency * 1000 - now.getTime();
    if (waitMs > 0) return err(failures.smsTooSoon(Math.ceil(waitMs / 1000)));
  }
  const code = deps.random.digits(settings.otpLength);
  const phone = factor.phone ?? "";
  outbox.add({
    reserve: async () => {
      const allowed = await deps.store.quota.take("sms", deps.settings.sms.rateLimitPerHour, 3_600_000, now);
      return allowed ? null : failures.smsRateLimit();
    },
    send: async () => (await deps.sms.send(phone, smsCodeText(settings.template, code))).messageId,
    undo: async (repos) => {
      // A code nobody received cannot be verified, and asking again works at once.
      await repos.challenges.delete(challenge.id);
      const current = await repos.factors.findOwned(factor.userId, factor.id);
      if (current !== null)
        await repos.factors.update({ ...current, lastChallengedAt: factor.lastChallengedAt });
    },
  });
  return ok({ ...challenge, otpCode: deps.secretBox.seal(challenge.id, code) });
}

/**
 * The reference's WebAuthn factor challenge: an unverified factor gets creation options (excluding the
 * credentials of the user's verified WebAuthn factors), a verified one request options allowing its
 * own credential (the reference allows all of the user's). The account is named by email alone, as the reference's MFA instance.
 */
async function webauthnCeremony(deps: Deps, repos: MfaRepositories, user: User, factor: Factor) {
  const rp = deps.settings.webauthn.rp;
  const verified = (await repos.factors.listByUser(user.id)).filter(
    (f) => f.factorType === "webauthn" && f.status === "verified",
  );
  const credentials: CredentialRef[] = [];
  for (const f of verified) {
    const found = f.webauthnCredential ?? (await repos.factors.findOwned(user.id, f.id))?.webauthnCredential;
    if (found) credentials.push({ id: found.credentialId, transports: found.transports });
  }
  if (factor.status !== "verified") {
    const email = user.email ?? "";
    const account = { id: user.id, name: email, displayName: email };
    const exclude = credentials.map((c) => ({ id: c.id, transports: ["usb", "nfc"] }));
    const made = await deps.webauthn.creationOptions({ rp, account, exclude, flavour: "mfa" });
    return { type: "create" as const, ...made };
  }
  // Only this factor's credential may answer: the verification is of this factor.
  const own =
    factor.webauthnCredential ?? (await repos.factors.findOwned(user.id, factor.id))?.webauthnCredential;
  const allow = own ? [{ id: own.credentialId, transports: own.transports }] : [];
  const made = await deps.webauthn.requestOptions({ rp, allow, flavour: "mfa" });
  return { type: "request" as const, ...made };
}
