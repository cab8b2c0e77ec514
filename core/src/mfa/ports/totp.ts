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
  /**
   * The time step (RFC 6238 `T`, Unix seconds / 30) whose code `code` is, when that step is `at`'s or
   * one either side; null when it is none of them. Constant-time. The step lets the caller refuse a
   * code of a step it already accepted (RFC 6238 §5.2).
   */
  match(secret: string, code: string, at: Date): number | null;
}
