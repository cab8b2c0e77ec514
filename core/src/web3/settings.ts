/** The settings of Web3 sign-in, as they appear in `AuthSettings`. */
export interface Web3Settings {
  readonly web3: {
    /** `EXTERNAL_WEB3_ETHEREUM_ENABLED`: Sign in with Ethereum (EIP-4361). */
    readonly ethereumEnabled: boolean;
    /** `EXTERNAL_WEB3_ETHEREUM_MAXIMUM_VALIDITY_DURATION`: how far from `Issued At` a message is accepted. */
    readonly maxValidityMs: number;
  };
}
