import { sliceFakes } from "../slice-fakes.js";
import { fakeSecretBox, fakeTotp } from "./fake-mfa.js";

/** MFA's settings of a default configuration, and its TOTP and secret box. */
export const mfaFakes = sliceFakes({
  settings: {
    mfa: {
      challengeExpiry: 300,
      factorExpiry: 300,
      maxEnrolledFactors: 10,
      maxVerifiedFactors: 10,
      totp: { enrollEnabled: true, verifyEnabled: true },
      phone: {
        enrollEnabled: true,
        verifyEnabled: true,
        otpLength: 6,
        maxFrequency: 60,
        template: "Your code is {{ .Code }}",
      },
      recoveryCodes: { enrollEnabled: true, verifyEnabled: true, count: 10 },
    },
  },
  deps: () => ({ totp: fakeTotp(), secretBox: fakeSecretBox() }),
});
