/** Passkeys (WebAuthn sign-in) and WebAuthn second factors: the relying party, limits and switches. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables, PREFIX } from "../../config/variable.js";

const EMBEDDED_RP_ID = "localhost";

const variable = defineVariables("Passkeys and WebAuthn");
export const variables = {
  enabled: variable({
    key: "PASSKEY_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Serves `/passkeys/*`: registering passkeys and signing in with one. Off: those endpoints answer `404 passkey_disabled` (the admin's `/admin/users/<id>/passkeys` answer regardless).",
  }),
  maxPerUser: variable({
    key: "PASSKEY_MAX_PASSKEYS_PER_USER",
    kind: k.wholeNumber({ min: 1 }),
    default: "10",
    description: "Passkeys one user may register.",
  }),
  rpId: variable({
    key: "WEBAUTHN_RP_ID",
    kind: k.text,
    required: `when ${PREFIX}PASSKEY_ENABLED or a ${PREFIX}MFA_WEB_AUTHN_* switch is on, unless embedded`,
    computedDefault: "`localhost` in embedded mode",
    description:
      "The relying party id: the domain passkeys are bound to (`example.com` serves `app.example.com` too). It cannot change once users have passkeys: theirs stop working.",
  }),
  rpDisplayName: variable({
    key: "WEBAUTHN_RP_DISPLAY_NAME",
    kind: k.text,
    computedDefault: "the relying party id",
    description: "The name authenticators show beside the account (`rp.name`).",
  }),
  rpOrigins: variable({
    key: "WEBAUTHN_RP_ORIGINS",
    kind: k.list,
    required: `when ${PREFIX}PASSKEY_ENABLED or a ${PREFIX}MFA_WEB_AUTHN_* switch is on, unless embedded`,
    computedDefault: "the origin of `SITE_URL` in embedded mode",
    description:
      "Comma-separated origins ceremonies may come from, each compared exactly with the browser's (`https://app.example.com`, `http://localhost:5173`).",
  }),
  challengeExpiry: variable({
    key: "WEBAUTHN_CHALLENGE_EXPIRY_DURATION",
    kind: k.duration(1000),
    default: "5m",
    description: "How long a passkey ceremony's challenge can be answered (a Go duration or seconds).",
  }),
  mfaEnrollEnabled: variable({
    key: "MFA_WEB_AUTHN_ENROLL_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "Users may enroll WebAuthn second factors (`factor_type: webauthn`).",
  }),
  mfaVerifyEnabled: variable({
    key: "MFA_WEB_AUTHN_VERIFY_ENABLED",
    kind: k.boolean,
    default: "false",
    description: "WebAuthn second factors may be challenged and verified.",
  }),
  rateLimitPasskey: variable({
    key: "RATE_LIMIT_PASSKEY",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description: `\`POST /passkeys/authentication/options\` requests per 5 minutes per client IP, at most 30 at once (needs \`${PREFIX}RATE_LIMIT_HEADER\`).`,
  }),
};

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === text;
  } catch {
    return false;
  }
}

export interface PasskeysConfig {
  readonly enabled: boolean;
  readonly maxPerUser: number;
  readonly challengeExpirySeconds: number;
  readonly rpId: string;
  readonly rpDisplayName: string;
  /** Undefined in embedded mode when unset: the origin of `SITE_URL`. */
  readonly rpOrigins: readonly string[] | undefined;
  readonly mfaEnrollEnabled: boolean;
  readonly mfaVerifyEnabled: boolean;
  readonly rateLimitPer5Min: number;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(m: ReturnType<typeof read>, ctx: SettleContext): { passkeys: PasskeysConfig } {
  const used = m.enabled || m.mfaEnrollEnabled || m.mfaVerifyEnabled;
  // A relying party is needed as soon as a ceremony can run; embedded mode serves localhost.
  if (used && !ctx.embedded) {
    ctx.r.requireIf(true, variables.rpId);
    ctx.r.requireIf(true, variables.rpOrigins);
  }
  if (used && ctx.embedded && m.rpId === undefined)
    ctx.notices.push(
      `${variables.rpId.name} not set: passkeys are bound to ${EMBEDDED_RP_ID} (embedded mode)`,
    );
  // Browsers report an origin as scheme, host and port alone: anything else could never match.
  for (const origin of m.rpOrigins ?? []) {
    if (!isOrigin(origin))
      ctx.r.problem(
        variables.rpOrigins.name,
        `expected origins such as https://app.example.com, got "${origin}"`,
      );
  }
  const rpId = m.rpId ?? EMBEDDED_RP_ID;
  return {
    passkeys: {
      enabled: m.enabled,
      maxPerUser: m.maxPerUser,
      challengeExpirySeconds: Math.max(1, Math.round(m.challengeExpiry / 1000)),
      rpId,
      rpDisplayName: m.rpDisplayName || rpId,
      rpOrigins: m.rpOrigins !== undefined && m.rpOrigins.length > 0 ? m.rpOrigins : undefined,
      mfaEnrollEnabled: m.mfaEnrollEnabled,
      mfaVerifyEnabled: m.mfaVerifyEnabled,
      rateLimitPer5Min: m.rateLimitPasskey,
    },
  };
}

/** The use cases' passkey and relying-party settings. */
export function passkeysSettings(config: Config): Pick<AuthSettings, "passkeys" | "webauthn"> {
  const p = config.passkeys;
  return {
    passkeys: { enabled: p.enabled, maxPerUser: p.maxPerUser, challengeExpiry: p.challengeExpirySeconds },
    webauthn: {
      rp: { id: p.rpId, name: p.rpDisplayName, origins: p.rpOrigins ?? [new URL(config.siteUrl).origin] },
      mfa: { enrollEnabled: p.mfaEnrollEnabled, verifyEnabled: p.mfaVerifyEnabled },
    },
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly passkeys: PasskeysConfig;
  }
}
