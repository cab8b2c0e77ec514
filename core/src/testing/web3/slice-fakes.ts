import { onceEach, sliceFakes } from "../slice-fakes.js";

/** Web3's settings of a default configuration (both chains off), and wallets whose signatures never check. */
export const web3Fakes = sliceFakes({
  settings: {
    web3: {
      ethereum: { enabled: false, maxValidityMs: 600_000 },
      solana: { enabled: false, maxValidityMs: 600_000 },
    },
  },
  deps: () => ({
    wallets: { ethereum: async () => false, solana: async () => false },
    signedMessages: onceEach(),
  }),
});
