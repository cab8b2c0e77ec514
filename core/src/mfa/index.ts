/** Multi-factor authentication: TOTP and phone factors, their challenges, and aal2 sessions. */
export * from "./admin-factors.js";
export type * from "./challenge.js";
export * from "./challenge-factor.js";
export * from "./enroll-factor.js";
export type * from "./ports/factor-store.js";
export type * from "./ports/secret-box.js";
export type * from "./ports/totp.js";
export type * from "./settings.js";
export { smsCodeText } from "./steps/sms-text.js";
export * from "./unenroll-factor.js";
export * from "./verify-factor.js";
