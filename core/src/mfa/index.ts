/** Multi-factor authentication: TOTP, phone and WebAuthn factors, recovery codes, and aal2 sessions. */
export * from "./admin-factors.js";
export type * from "./challenge.js";
export { challengeFactor } from "./challenge-factor.js";
export { enrollFactor } from "./enroll-factor.js";
export type { ChallengeStore, FactorAttempts, FactorStore, SessionAssurance } from "./ports/factor-store.js";
export type * from "./ports/recovery-code-store.js";
export type * from "./ports/secret-box.js";
export type { Totp } from "./ports/totp.js";
export * from "./recovery-codes.js";
export type { MfaSliceSettings } from "./settings.js";
export * from "./unenroll-factor.js";
export { verifyFactor } from "./verify-factor.js";
export { verifyRecoveryCode } from "./verify-recovery-code.js";
