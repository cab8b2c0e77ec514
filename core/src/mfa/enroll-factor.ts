import { type Factor, type FactorType, normalizePhone, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import type { TotpEnrolment } from "./ports/totp.js";
import { callerSession } from "./steps/caller.js";
import { checkEnrolment } from "./steps/factor-rules.js";

export interface EnrollFactorInput {
  readonly user: User;
  /** The caller's session (the `session_id` claim). */
  readonly sessionId: string | null;
  readonly factorType: string;
  readonly friendlyName?: string | undefined;
  /** TOTP: the issuer shown by the authenticator app; SITE_URL's host when absent. */
  readonly issuer?: string | undefined;
  /** Phone: the number codes are texted to. */
  readonly phone?: string | undefined;
}

export interface Enrolled {
  readonly factor: Factor;
  /** TOTP only: the secret, its URI and QR code, shown once. */
  readonly totp?: TotpEnrolment;
  /** Phone only: the number as given. */
  readonly phone?: string;
}

/** Keeps the otpauth URI (where the issuer appears twice, percent-encoded) within what a QR code holds. */
const MAX_ISSUER_LENGTH = 256;

type Deps = Pick<MfaDeps, "store" | "clock" | "random" | "settings" | "totp" | "secretBox">;

/**
 * `POST /factors`: starts the enrolment of a second factor, unverified until its first successful
 * verification. TOTP answers its secret once (as text, URI and QR code) and keeps it only sealed;
 * a phone factor replaces an unverified factor of the same number and refuses a verified one. The
 * caps on factors hold under parallel enrolments (they are counted under the user's row lock).
 */
export async function enrollFactor(deps: Deps, input: EnrollFactorInput): Promise<Result<Enrolled>> {
  const { user } = input;
  if (user.isAnonymous) return err(failures.anonymousMfa());
  const { mfa } = deps.settings;
  const type = input.factorType;
  if (type !== "totp" && type !== "phone" && type !== "webauthn")
    return err(failures.factorTypeUnsupported());
  if (type === "webauthn" && !deps.settings.webauthn.mfa.enrollEnabled)
    return err(failures.webauthnEnrollDisabled());
  if (type === "totp" && !mfa.totp.enrollEnabled) return err(failures.totpEnrollDisabled());
  if (type === "phone" && !mfa.phone.enrollEnabled) return err(failures.phoneEnrollDisabled());
  if (encodeURIComponent(input.issuer ?? "").length > MAX_ISSUER_LENGTH)
    return err(failures.factorIssuerTooLong(MAX_ISSUER_LENGTH));
  let phone: string | null = null;
  if (type === "phone") {
    if (!input.phone) return err(failures.factorPhoneRequired());
    const normalized = normalizePhone(input.phone);
    if (!normalized.ok) return normalized;
    phone = normalized.value;
  }
  const now = deps.clock.now();
  const friendlyName = input.friendlyName ?? "";
  const totp = type === "totp" ? await deps.totp.enrol(totpLabel(deps, user, input.issuer)) : undefined;
  const id = deps.random.uuid();
  const factor: Factor = {
    id,
    userId: user.id,
    friendlyName,
    factorType: type as FactorType,
    status: "unverified",
    secret: totp ? deps.secretBox.seal(id, totp.secret) : null,
    phone,
    createdAt: now,
    updatedAt: now,
    lastChallengedAt: null,
  };
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Enrolled>> => {
    // The user's row lock makes parallel enrolments count and insert one after the other: without it
    // each counts the factors before the others' inserts and the cap is passed.
    if ((await repos.users.lock(user.id)) === null) return err(failures.jwtUserMissing());
    const session = await callerSession(repos, input.sessionId);
    if (!session.ok) return session;
    if (phone !== null) {
      const replaced = await replaceUnverifiedPhone(repos, user.id, phone);
      if (!replaced.ok) return replaced;
    }
    const allowed = await checkEnrolment(deps, repos, {
      userId: user.id,
      friendlyName,
      sessionAal: session.value.aal,
      now,
    });
    if (!allowed.ok) return allowed;
    const inserted = await repos.factors.insert(factor);
    if (inserted === "name_taken") return err(failures.factorNameConflict(friendlyName));
    if (inserted === "phone_taken") return err(failures.verifiedPhoneFactorExists());
    await repos.audit.record({
      action: "factor_in_progress",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: { factor_id: id, factor_type: type },
      at: now,
    });
    return ok({
      factor,
      ...(totp ? { totp } : {}),
      ...(input.phone !== undefined && phone !== null ? { phone: input.phone } : {}),
    });
  });
}

/** The reference labels the secret with the user's email and SITE_URL's host unless told otherwise. */
function totpLabel(deps: Pick<MfaDeps, "settings">, user: User, issuer: string | undefined) {
  return { issuer: issuer || hostOf(deps.settings.siteUrl), accountName: user.email ?? "" };
}

/** The host (with its port) of an absolute URL, as Go's `url.ParseRequestURI(...).Host`. */
function hostOf(url: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? url;
  return authority.slice(authority.lastIndexOf("@") + 1);
}

/** A verified factor of this number stops the enrolment; unverified ones give way to the new one. */
async function replaceUnverifiedPhone(
  repos: MfaRepositories,
  userId: string,
  phone: string,
): Promise<Result<true>> {
  for (const factor of await repos.factors.listByUser(userId)) {
    if (factor.factorType !== "phone" || factor.phone !== phone) continue;
    if (factor.status === "verified") return err(failures.verifiedPhoneFactorExists());
    await repos.factors.delete(factor.id);
  }
  return ok(true);
}
