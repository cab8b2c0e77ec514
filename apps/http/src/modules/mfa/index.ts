import { otpauthTotp } from "@authsvc/adapters";
import { sectionOf } from "../../config/sections/section.js";
import { secretBoxOf } from "../../infrastructure/jwt/crypto.js";
import type { HttpModule } from "../module.js";
import { adminFactorEndpoints } from "./admin-factors.js";
import { factorEndpoints } from "./factors.js";
import { adminRecoveryCodeEndpoints, recoveryCodeEndpoints } from "./recovery-codes.js";
import * as mfa from "./section.js";

/** Multi-factor authentication: factors, challenges, recovery codes and the admin's view of them. */
export const mfaModule: HttpModule = {
  name: "mfa",
  section: sectionOf(mfa),
  ports: ({ config }) => ({ totp: otpauthTotp(), secretBox: secretBoxOf(config) }),
  settings: (config) => ({ mfa: mfa.mfaSettings(config) }),
  // Recovery codes first: their static paths would otherwise be taken for a factor's id.
  endpoints: [
    ...recoveryCodeEndpoints,
    ...factorEndpoints,
    ...adminRecoveryCodeEndpoints,
    ...adminFactorEndpoints,
  ],
  statuses: {
    mfa_verification_rejected: 403,
    too_many_enrolled_mfa_factors: 422,
    mfa_factor_name_conflict: 422,
    mfa_factor_not_found: 404,
    mfa_ip_address_mismatch: 422,
    mfa_challenge_expired: 422,
    mfa_verification_failed: 422,
    mfa_verified_factor_exists: 422,
    insufficient_aal: 403,
    mfa_totp_enroll_not_enabled: 422,
    mfa_totp_verify_not_enabled: 422,
    mfa_phone_enroll_not_enabled: 422,
    mfa_phone_verify_not_enabled: 422,
    mfa_recovery_codes_enroll_not_enabled: 422,
    mfa_recovery_codes_verify_not_enabled: 422,
    mfa_recovery_codes_locked: 429,
    mfa_recovery_codes_sole_factor: 422,
  },
  failureStatuses: {
    // MFA (the reference's mfa.go): anonymous callers 403; a malformed factor id 404; an unknown
    // challenge id 422; unenrolling a verified factor below aal2 422; a recovery-code factor at the
    // endpoints of other factors 422 (recovery_codes.go).
    anonymousMfa: 403,
    recoveryCodeFactorManaged: 422,
    factorIdNotUuid: 404,
    challengeNotFound: 422,
    unenrollNeedsAal2: 422,
  },
};
