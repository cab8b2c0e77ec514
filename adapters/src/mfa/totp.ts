import { createRequire } from "node:module";
import { failures } from "@authsvc/core";
import type { Totp } from "@authsvc/core/mfa";
import { Secret, TOTP } from "otpauth";
import type * as QRCodeModule from "qrcode";

/** The reference's parameters (pquerna/otp defaults): SHA-1, 6 digits, 30 s steps, 160-bit secrets. */
const PARAMETERS = { algorithm: "SHA1", digits: 6, period: 30 } as const;

/**
 * The URI as an SVG QR code, at the reference's error correction level H when the URI fits, else at a
 * lower level (a long issuer or address: level H holds at most 1273 bytes, level L 2953).
 */
async function qrSvg(uri: string): Promise<string> {
  // Required on the first enrolment, not imported at the top: most starts never draw a QR code.
  const QRCode = createRequire(import.meta.url)("qrcode") as typeof QRCodeModule;
  for (const errorCorrectionLevel of ["H", "M", "L"] as const) {
    try {
      return await QRCode.toString(uri, { type: "svg", errorCorrectionLevel, margin: 1 });
    } catch {
      // Too long even at level L: a label of a length nobody uses, answered as bad input.
      if (errorCorrectionLevel === "L") throw failures.factorLabelTooLong();
    }
  }
  throw new Error("unreachable");
}

/**
 * RFC 6238 codes by `otpauth`, QR codes by `qrcode` (an SVG document, error correction level H as the
 * reference's). `match` accepts the code of the current step and of one step either side, compared in
 * constant time by the library, and answers the step it is the code of.
 */
export function otpauthTotp(): Totp {
  return {
    async enrol({ issuer, accountName }) {
      const totp = new TOTP({ ...PARAMETERS, issuer, label: accountName, secret: new Secret({ size: 20 }) });
      const uri = totp.toString();
      return { secret: totp.secret.base32, uri, qrCode: await qrSvg(uri) };
    },
    match(secret, code, at) {
      if (!/^[0-9]{6}$/.test(code)) return null;
      let key: Secret;
      try {
        key = Secret.fromBase32(secret);
      } catch {
        return null;
      }
      const timestamp = at.getTime();
      const delta = TOTP.validate({ ...PARAMETERS, token: code, secret: key, timestamp, window: 1 });
      return delta === null ? null : TOTP.counter({ period: PARAMETERS.period, timestamp }) + delta;
    },
  };
}
