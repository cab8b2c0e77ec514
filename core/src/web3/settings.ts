/** One chain's sign-in settings. */
export interface Web3ChainSettings {
  /** `EXTERNAL_WEB3_<CHAIN>_ENABLED`. */
  readonly enabled: boolean;
  /** `EXTERNAL_WEB3_<CHAIN>_MAXIMUM_VALIDITY_DURATION`: how far from `Issued At` a message is accepted. */
  readonly maxValidityMs: number;
}

/** The settings of Web3 sign-in, as they appear in `AuthSettings`. */
export interface Web3Settings {
  readonly web3: {
    /** Sign in with Ethereum (EIP-4361). */
    readonly ethereum: Web3ChainSettings;
    /** Sign in with Solana (SIWS). */
    readonly solana: Web3ChainSettings;
  };
}
