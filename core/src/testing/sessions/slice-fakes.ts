import { sliceFakes } from "../slice-fakes.js";
import { fakeSigner } from "./fake-signer.js";

/** Sessions' settings of a default configuration, and its token signer on the fakes' clock. */
export const sessionsFakes = sliceFakes({
  settings: {
    refreshTokens: { rotationEnabled: true, reuseIntervalMs: 10_000 },
    sessions: { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false },
    lockout: { enabled: true, backoffAfter: 10, lockAfter: 20, lockSeconds: 900, resetSeconds: 43_200 },
  },
  deps: ({ clock }) => ({ signer: fakeSigner(clock) }),
});
