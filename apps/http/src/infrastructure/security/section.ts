/** Passwords and security: password rules, refresh token rotation, reauthentication, captcha. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { must, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

export const CAPTCHA_PROVIDERS = ["hcaptcha", "turnstile"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

// The reference server raises smaller minimums to 6 rather than refusing them.
const LEAST_PASSWORD_LENGTH = 6;

const variable = defineVariables("Passwords and security");
export const variables = {
  passwordMinLength: variable({
    key: "PASSWORD_MIN_LENGTH",
    kind: k.wholeNumber(),
    default: "6",
    description: "Minimum password length. Values below 6 are raised to 6, as the reference server does.",
  }),
  passwordRequiredCharacters: variable({
    key: "PASSWORD_REQUIRED_CHARACTERS",
    kind: k.characterSets,
    default: "",
    description:
      "Character sets separated by `:`; a password needs one character of each. `\\:` is a literal colon: `abc:ABC:0123456789:\\:!`.",
  }),
  passwordHibpEnabled: variable({
    key: "PASSWORD_HIBP_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Check every new password (sign-up, `PUT /user`, admin create and update, `generate_link`) against the leaked passwords of Have I Been Pwned: a leaked one is refused with 422 `weak_password`, reason `pwned`. A correct leaked password still signs in, its token answer carrying `weak_password`. Only the first five hex digits of the password's SHA-1 leave the server (the k-anonymity range API).",
  }),
  passwordHibpFailClosed: variable({
    key: "PASSWORD_HIBP_FAIL_CLOSED",
    kind: k.boolean,
    default: "false",
    description:
      "When the range API cannot be reached or does not answer within 5 seconds, refuse the new password with 500 `unexpected_failure` instead of allowing it (a warning is logged either way).",
  }),
  passwordHibpUserAgent: variable({
    key: "PASSWORD_HIBP_USER_AGENT",
    kind: k.text,
    default: "authsvc",
    description:
      "The `User-Agent` sent to the range API (Have I Been Pwned asks every client to name itself).",
  }),
  passwordHibpUrl: variable({
    key: "PASSWORD_HIBP_URL",
    kind: k.url,
    default: "https://api.pwnedpasswords.com",
    description:
      "Base URL of the k-anonymity range API (`GET <url>/range/<five hex digits>`); set it only to reach a mirror or a test double.",
  }),
  refreshTokenRotationEnabled: variable({
    key: "SECURITY_REFRESH_TOKEN_ROTATION_ENABLED",
    kind: k.boolean,
    default: "true",
    description: "Detect reuse of revoked refresh tokens and revoke the token family.",
  }),
  refreshTokenReuseInterval: variable({
    key: "SECURITY_REFRESH_TOKEN_REUSE_INTERVAL",
    kind: k.duration(),
    default: "10",
    description: "How long a just-rotated refresh token may still be used (concurrent refreshes).",
  }),
  updatePasswordRequireReauthentication: variable({
    key: "SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION",
    kind: k.boolean,
    default: "false",
    description: "A password change needs a nonce from `GET /reauthenticate`.",
  }),
  manualLinkingEnabled: variable({
    key: "SECURITY_MANUAL_LINKING_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Signed-in users may link (`GET /user/identities/authorize`) and unlink (`DELETE /user/identities/<id>`) external identities.",
  }),
  providerLinkingDomains: variable({
    key: "EXPERIMENTAL_PROVIDER_LINKING_DOMAINS",
    kind: k.providerDomains,
    default: "",
    description:
      "Account-linking domains (the reference's): `custom:github=social,custom:google=social` puts those providers in the domain `social`, where a verified address links their identities to one another but never to an account of another domain. Every provider not named is in `default`, which links by verified address to any account of `default` (sign-ups by email or phone included); each SAML identity provider is a domain of its own. An account created outside `default` is flagged `is_sso_user`: another account may hold its address, and no address finds it (no password, recovery or magic link).",
  }),
  providersWithOwnLinkingDomain: variable({
    key: "EXPERIMENTAL_PROVIDERS_WITH_OWN_LINKING_DOMAIN",
    kind: k.list,
    default: "",
    description:
      "The reference's older form: each provider named is a linking domain of its own (`google` is `google=google` in `AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS`, whose entries win).",
  }),
  signupHideExisting: variable({
    key: "SECURITY_SIGNUP_HIDE_EXISTING",
    kind: k.boolean,
    default: "false",
    description:
      "Sign-up answers carry `identities: []` for every address, new or taken, so that they never tell whether an account exists. Off: as the reference, a new user's identity, and `[]` for an address already confirmed.",
  }),
  captchaEnabled: variable({
    key: "SECURITY_CAPTCHA_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Check `gotrue_meta_security.captcha_token` with the captcha provider on sign-up (anonymous too), password sign-in, `/otp`, `/magiclink`, `/recover` and `/resend`; callers with a service-role key are not checked.",
  }),
  captchaProvider: variable({
    key: "SECURITY_CAPTCHA_PROVIDER",
    kind: k.oneOf(CAPTCHA_PROVIDERS),
    default: "hcaptcha",
    description: "Captcha provider.",
  }),
  captchaSecret: variable({
    key: "SECURITY_CAPTCHA_SECRET",
    kind: k.secret(),
    required: "when AUTHSVC_SECURITY_CAPTCHA_ENABLED is true",
    description: "Captcha provider secret.",
  }),
  captchaTimeout: variable({
    key: "SECURITY_CAPTCHA_TIMEOUT",
    kind: k.duration(1),
    default: "10s",
    description:
      "Timeout of the verification request to the captcha provider. A provider that does not answer in time, or cannot be reached, gets the request `500 unexpected_failure`, as in the reference server: never let through.",
  }),
  captchaUrl: variable({
    key: "SECURITY_CAPTCHA_URL",
    kind: k.url,
    computedDefault:
      "the provider's: `https://api.hcaptcha.com/siteverify` or `https://challenges.cloudflare.com/turnstile/v0/siteverify`",
    description:
      "Verification URL of the captcha provider. Set it only to reach a proxy or a test double that speaks the provider's `siteverify` API.",
  }),
};

export interface PasswordConfig {
  readonly minLength: number;
  /** A password needs at least one character from each set. */
  readonly requiredCharacters: readonly string[];
  /** The leaked-password check against the range API of Have I Been Pwned. */
  readonly hibp: {
    readonly enabled: boolean;
    readonly failClosed: boolean;
    readonly userAgent: string;
    readonly url: string;
  };
}

interface CaptchaCommon {
  readonly provider: CaptchaProvider;
  readonly timeoutMs: number;
  /** Overrides the provider's verification URL. */
  readonly url?: string | undefined;
}
export type CaptchaConfig =
  | (CaptchaCommon & { readonly enabled: true; readonly secret: string })
  | (CaptchaCommon & { readonly enabled: false; readonly secret: string | undefined });

export interface SecurityConfig {
  readonly refreshTokenRotationEnabled: boolean;
  readonly refreshTokenReuseIntervalMs: number;
  readonly updatePasswordRequireReauthentication: boolean;
  readonly manualLinkingEnabled: boolean;
  /** Each named provider's account-linking domain: `PROVIDER_LINKING_DOMAINS` over the older list. */
  readonly providerLinkingDomains: Readonly<Record<string, string>>;
  readonly signupHideExisting: boolean;
  readonly captcha: CaptchaConfig;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(
  s: ReturnType<typeof read>,
  ctx: SettleContext,
): { password: PasswordConfig; security: SecurityConfig } {
  if (s.passwordMinLength < LEAST_PASSWORD_LENGTH) {
    ctx.notices.push(
      `${variables.passwordMinLength.name} is ${s.passwordMinLength}: raised to ${LEAST_PASSWORD_LENGTH}, the least allowed`,
    );
  }
  ctx.r.requireIf(s.captchaEnabled, variables.captchaSecret);
  const captchaCommon = {
    provider: s.captchaProvider,
    timeoutMs: s.captchaTimeout,
    ...(s.captchaUrl !== undefined ? { url: s.captchaUrl } : {}),
  };
  return {
    password: {
      minLength: Math.max(LEAST_PASSWORD_LENGTH, s.passwordMinLength),
      requiredCharacters: s.passwordRequiredCharacters,
      hibp: {
        enabled: s.passwordHibpEnabled,
        failClosed: s.passwordHibpFailClosed,
        userAgent: s.passwordHibpUserAgent,
        url: s.passwordHibpUrl,
      },
    },
    security: {
      refreshTokenRotationEnabled: s.refreshTokenRotationEnabled,
      refreshTokenReuseIntervalMs: s.refreshTokenReuseInterval,
      updatePasswordRequireReauthentication: s.updatePasswordRequireReauthentication,
      manualLinkingEnabled: s.manualLinkingEnabled,
      providerLinkingDomains: {
        ...Object.fromEntries(s.providersWithOwnLinkingDomain.map((provider) => [provider, provider])),
        ...s.providerLinkingDomains,
      },
      signupHideExisting: s.signupHideExisting,
      captcha: s.captchaEnabled
        ? { ...captchaCommon, enabled: true, secret: must(ctx, s.captchaSecret, variables.captchaSecret) }
        : { ...captchaCommon, enabled: false, secret: s.captchaSecret },
    },
  };
}

/** Password rules, refresh token rotation and reauthentication, as the use cases read them. */
export function securitySettings(
  config: Config,
): Pick<
  AuthSettings,
  | "password"
  | "refreshTokens"
  | "updatePasswordRequiresReauthentication"
  | "manualLinkingEnabled"
  | "providerLinkingDomains"
> {
  return {
    password: {
      minLength: config.password.minLength,
      requiredCharacters: config.password.requiredCharacters,
      leaked: { enabled: config.password.hibp.enabled, failClosed: config.password.hibp.failClosed },
    },
    refreshTokens: {
      rotationEnabled: config.security.refreshTokenRotationEnabled,
      reuseIntervalMs: config.security.refreshTokenReuseIntervalMs,
    },
    updatePasswordRequiresReauthentication: config.security.updatePasswordRequireReauthentication,
    manualLinkingEnabled: config.security.manualLinkingEnabled,
    providerLinkingDomains: config.security.providerLinkingDomains,
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly password: PasswordConfig;
    readonly security: SecurityConfig;
  }
}
