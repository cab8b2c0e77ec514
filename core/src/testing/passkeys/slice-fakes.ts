import { sliceFakes } from "../slice-fakes.js";
import { fakeWebAuthn } from "./fake-webauthn.js";

/** Passkeys' and WebAuthn factors' settings of a default configuration, and the WebAuthn ceremonies. */
export const passkeysFakes = sliceFakes({
  settings: {
    passkeys: { enabled: true, maxPerUser: 10, challengeExpiry: 300 },
    webauthn: {
      rp: { id: "localhost", name: "authsvc", origins: ["http://localhost:5173"] },
      mfa: { enrollEnabled: true, verifyEnabled: true },
    },
  },
  deps: () => ({ webauthn: fakeWebAuthn() }),
});
