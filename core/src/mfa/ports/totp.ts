/** A TOTP authenticator enrolment: what the user's app needs. */
export interface TotpEnrolment {
  /** The shared secret, base32 (RFC 4648) as authenticator apps take it. */
  readonly secret: string;
  /** `otpauth://totp/<issuer>:<account>?secret=…&issuer=…` (the Key URI format). */
  readonly uri: string;
  /** The URI as a QR code, an SVG document. */
  readonly qrCode: string;
}

/** Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30 s steps). */
export interface Totp {
  /** A new secret for `accountName` at `issuer`, with its URI and QR code. */
  enrol(input: { issuer: string; accountName: string }): Promise<TotpEnrolment>;
  /** Whether `code` is the code of `secret` at `at`, one step before or after included. Constant-time. */
  check(secret: string, code: string, at: Date): boolean;
}
