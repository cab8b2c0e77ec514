import { accountsFailures } from "./accounts/failures.js";
import { adminFailures } from "./admin/failures.js";
import { customProvidersFailures } from "./custom-providers/failures.js";
import { dpopFailures } from "./dpop/failures.js";
import { externalFailures } from "./external/failures.js";
import { guardsFailures } from "./guards/failures.js";
import { hooksFailures } from "./hooks/failures.js";
import {
  AuthError,
  assertNamedOnce,
  type ErrorCode,
  failureConstructors,
  HookRejection,
  type Intersection,
  kernelFailures,
} from "./kernel/index.js";
import { messagingFailures } from "./messaging/failures.js";
import { mfaFailures } from "./mfa/failures.js";
import { oauthDeviceFailures } from "./oauth-server/device-failures.js";
import { oauthServerFailures } from "./oauth-server/failures.js";
import { passkeysFailures } from "./passkeys/failures.js";
import { pkceFailures } from "./pkce/failures.js";
import { sessionsFailures } from "./sessions/failures.js";
import { signupFailures } from "./signup/failures.js";
import { ssoFailures } from "./sso/failures.js";
import { verificationFailures } from "./verification/failures.js";
import { web3Failures } from "./web3/failures.js";

/**
 * Each slice's failures (its `failures.ts`): a new slice with failures of its own is one entry here.
 * Not derived from `SLICES` (slices.ts): every use case imports this catalogue, and that list
 * imports every slice's deps, which import the slices' entries back.
 */
const parts = [
  kernelFailures,
  externalFailures,
  accountsFailures,
  signupFailures,
  sessionsFailures,
  guardsFailures,
  messagingFailures,
  verificationFailures,
  adminFailures,
  pkceFailures,
  hooksFailures,
  mfaFailures,
  passkeysFailures,
  oauthServerFailures,
  oauthDeviceFailures,
  web3Failures,
  customProvidersFailures,
  ssoFailures,
  dpopFailures,
] as const;

/** Every slice's failures, each name once (a name two slices define is refused when core loads). */
assertNamedOnce(parts);
const catalogue = Object.assign({}, ...parts) as Intersection<(typeof parts)[number]>;

/** The name of a failure in the catalogue; `apps/http` keys its status overrides by it. */
export type FailureName = keyof typeof catalogue;

/** Named constructors, one per failure: `failures.userBanned()`, `failures.emailTooSoon(40)`. */
export const failures = {
  ...failureConstructors(catalogue),
  /** `weak_password` carries its reasons (`length`, `characters`) beside the message. */
  weakPassword: (sentences: readonly string[], reasons: readonly string[]): AuthError =>
    new AuthError(
      "weak_password",
      catalogue.weakPassword[1](sentences),
      { weak_password: { reasons } },
      "weakPassword",
    ),
  /** A hook's error object: its `http_code` (default 500) becomes the status, its message the message. */
  hookError: (httpCode: unknown, message: string): AuthError => new HookRejection(httpCode, message),
} as const;

/** The error code of each failure: what a description of the interface lists under each status. */
export const failureCodeOf: Readonly<Record<FailureName, ErrorCode>> = Object.fromEntries(
  Object.entries(catalogue).map(([name, [code]]) => [name, code]),
) as Record<FailureName, ErrorCode>;

/** The codes the catalogue's failures answer with: each needs an HTTP status. */
export const failureCodes: ReadonlySet<ErrorCode> = new Set(Object.values(failureCodeOf));
