/**
 * Recovery codes as the reference writes them: 16 characters of RFC 4648's base32 alphabet in
 * lowercase (80 bits each), shown once; users may type them in any case, with spaces or dashes.
 */
export const RECOVERY_CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
export const RECOVERY_CODE_LENGTH = 16;
export const DEFAULT_RECOVERY_CODES_NAME = "Recovery codes";

/** The canonical form of a code as typed: lowercase, without whitespace or `-`. */
export const canonicalRecoveryCode = (typed: string): string => typed.replace(/[\s-]+/g, "").toLowerCase();
