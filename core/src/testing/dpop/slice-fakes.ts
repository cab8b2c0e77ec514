import { sliceFakes } from "../slice-fakes.js";
import { fakeDpopLedger, fakeDpopNonces, fakeDpopProofs } from "./fake-dpop.js";

/** DPoP's settings of a default configuration (optional per client, no nonce), and its ports' fakes. */
export const dpopFakes = sliceFakes({
  settings: {
    dpop: {
      algorithms: ["ES256", "EdDSA", "RS256", "PS256"] as readonly string[],
      proofMaxAgeSeconds: 60,
      nonceRequired: false,
      requiredForAll: false,
    },
  },
  deps: () => ({ dpopProofs: fakeDpopProofs(), dpopNonces: fakeDpopNonces(), dpopLedger: fakeDpopLedger() }),
});
