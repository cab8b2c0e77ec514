/** Multi-factor authentication: TOTP and phone factors, recovery codes, their limits, and the encryption of their secrets. */
import type { AuthSettings } from "@authsvc/core";
import * as v from "valibot";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables, PREFIX } from "../../config/variable.js";

/** A 256-bit key as the reference spells it: base64url without padding (43 characters). */
const key256: k.Kind<string> = {
  type: "256-bit key, base64url",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => isKey256(text),
      "expected 32 bytes in base64url (e.g. `openssl rand -base64 32 | tr '+/' '-_' | tr -d =`)",
    ),
  ),
};

function isKey256(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}=?$/.test(text) && Buffer.from(text, "base64url").length === 32;
}

/** `id:key,id:key`, as the reference's envconfig map. */
const keyMap: k.Kind<Readonly<Record<string, string>>> = {
  type: "comma-separated id:key pairs",
  schema: v.pipe(
    v.string(),
    v.transform((text) =>
      text
        .split(",")
        .map((pair) => pair.trim())
        .filter((pair) => pair !== "")
        .map((pair) => [pair.slice(0, pair.indexOf(":")), pair.slice(pair.indexOf(":") + 1)] as const),
    ),
    v.check(
      (pairs) => pairs.every(([id, key]) => id !== "" && isKey256(key)),
      "expected id:key pairs, each key 32 bytes in base64url",
    ),
    v.transform((pairs) => Object.fromEntries(pairs)),
  ),
};

const variable = defineVariables("Multi-factor authentication");
export const variables = {
  challengeExpiry: variable({
    key: "MFA_CHALLENGE_EXPIRY_DURATION",
    kind: k.seconds({ min: 1 }),
    default: "300",
    description: "How long a challenge can be verified, in seconds.",
  }),
  factorExpiry: variable({
    key: "MFA_FACTOR_EXPIRY_DURATION",
    kind: k.seconds({ min: 1 }),
    default: "300",
    description: "An unverified factor older than this is removed at the user's next enrolment, in seconds.",
  }),
  maxEnrolledFactors: variable({
    key: "MFA_MAX_ENROLLED_FACTORS",
    kind: k.wholeNumber(),
    default: "10",
    description: "Factors one user may have, verified or not.",
  }),
  maxVerifiedFactors: variable({
    key: "MFA_MAX_VERIFIED_FACTORS",
    kind: k.wholeNumber(),
    default: "10",
    description: "Verified factors one user may have.",
  }),
  totpEnrollEnabled: variable({
    key: "MFA_TOTP_ENROLL_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "Users may enroll TOTP (authenticator app) factors.",
  }),
  totpVerifyEnabled: variable({
    key: "MFA_TOTP_VERIFY_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "TOTP factors may be challenged and verified.",
  }),
  phoneEnrollEnabled: variable({
    key: "MFA_PHONE_ENROLL_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Users may enroll phone factors (codes by SMS through `SMS_PROVIDER`).",
  }),
  phoneVerifyEnabled: variable({
    key: "MFA_PHONE_VERIFY_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Phone factors may be challenged (a code is texted) and verified.",
  }),
  phoneOtpLength: variable({
    key: "MFA_PHONE_OTP_LENGTH",
    kind: k.wholeNumber({ min: 6, max: 10 }),
    default: "6",
    description: "Digits in a phone factor's code.",
  }),
  phoneMaxFrequency: variable({
    key: "MFA_PHONE_MAX_FREQUENCY",
    kind: k.seconds(),
    default: "60",
    description: "Minimum time between two challenges of one phone factor, in seconds.",
  }),
  phoneTemplate: variable({
    key: "MFA_PHONE_TEMPLATE",
    kind: k.text,
    default: "Your code is {{ .Code }}",
    description: "Text of a phone factor's code; `{{ .Code }}` becomes the code.",
  }),
  recoveryCodesEnrollEnabled: variable({
    key: "MFA_RECOVERY_CODES_ENROLL_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Users with a verified factor may generate, regenerate and delete a set of single-use recovery codes (`/factors/recovery-codes`).",
  }),
  recoveryCodesVerifyEnabled: variable({
    key: "MFA_RECOVERY_CODES_VERIFY_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "A recovery code may raise a session to `aal2` in place of another factor.",
  }),
  recoveryCodesCount: variable({
    key: "MFA_RECOVERY_CODES_COUNT",
    kind: k.wholeNumber({ min: 5, max: 20 }),
    default: "10",
    description: "Codes in a set of recovery codes (each 16 base32 characters, 80 bits).",
  }),
  rateLimitChallengeAndVerify: variable({
    key: "MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY",
    kind: k.wholeNumber({ min: 1 }),
    default: "15",
    description: `Requests per minute per client IP to each of \`/factors/<id>/challenge\` and \`/factors/<id>/verify\`, at most 30 at once (needs \`${PREFIX}RATE_LIMIT_HEADER\`).`,
  }),
  encryptionKeyId: variable({
    key: "SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY_ID",
    kind: k.text,
    required: `when ${PREFIX}SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY is set`,
    description: "Name of the key below; stored with every value it encrypts.",
  }),
  encryptionKey: variable({
    key: "SECURITY_DB_ENCRYPTION_ENCRYPTION_KEY",
    kind: key256,
    computedDefault: "a key derived from `JWT_SECRET` (see docs/mfa.md)",
    description:
      "Key (32 bytes, base64url) that encrypts TOTP secrets and texted codes at rest (AES-256-GCM, the reference's format). Unset: a key derived from `JWT_SECRET` is used, so changing that secret makes enrolled TOTP factors unusable.",
  }),
  decryptionKeys: variable({
    key: "SECURITY_DB_ENCRYPTION_DECRYPTION_KEYS",
    kind: keyMap,
    default: "",
    description:
      "Older keys that still decrypt, as `id:key,id:key` (key rotation, or a database copied from the reference server).",
  }),
};

export interface MfaConfig {
  readonly settings: AuthSettings["mfa"];
  /** Per client IP per minute, each of challenge and verify. */
  readonly rateLimitPerMinute: number;
  /** The key that encrypts; undefined means "derive one from JWT_SECRET". */
  readonly encryptionKey: { readonly id: string; readonly key: string } | undefined;
  readonly decryptionKeys: Readonly<Record<string, string>>;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(m: ReturnType<typeof read>, ctx: SettleContext): { mfa: MfaConfig } {
  ctx.r.requireIf(m.encryptionKey !== undefined, variables.encryptionKeyId);
  const encryptionKey =
    m.encryptionKey !== undefined && m.encryptionKeyId !== undefined
      ? { id: m.encryptionKeyId, key: m.encryptionKey }
      : undefined;
  return {
    mfa: {
      settings: {
        challengeExpiry: m.challengeExpiry,
        factorExpiry: m.factorExpiry,
        maxEnrolledFactors: m.maxEnrolledFactors,
        maxVerifiedFactors: m.maxVerifiedFactors,
        totp: { enrollEnabled: m.totpEnrollEnabled, verifyEnabled: m.totpVerifyEnabled },
        phone: {
          enrollEnabled: m.phoneEnrollEnabled,
          verifyEnabled: m.phoneVerifyEnabled,
          otpLength: m.phoneOtpLength,
          maxFrequency: m.phoneMaxFrequency,
          template: m.phoneTemplate,
        },
        recoveryCodes: {
          enrollEnabled: m.recoveryCodesEnrollEnabled,
          verifyEnabled: m.recoveryCodesVerifyEnabled,
          count: m.recoveryCodesCount,
        },
      },
      rateLimitPerMinute: m.rateLimitChallengeAndVerify,
      encryptionKey,
      decryptionKeys: m.decryptionKeys,
    },
  };
}

/** The use cases' MFA settings. */
export const mfaSettings = (config: Config): AuthSettings["mfa"] => config.mfa.settings;

declare module "../../config/shape.js" {
  interface Config {
    readonly mfa: MfaConfig;
  }
}
