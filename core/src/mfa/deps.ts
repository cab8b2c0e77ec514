import type { Transactor } from "../kernel/index.js";
import type { VerificationDeps, VerificationRepositories } from "../verification/index.js";
import type { ChallengeStore, FactorStore, SessionAssurance } from "./ports/factor-store.js";
import type { SecretBox } from "./ports/secret-box.js";
import type { Totp } from "./ports/totp.js";

/** The repositories MFA uses: factors, challenges, the sessions they raise, and the SMS counters. */
export interface MfaRepositories extends VerificationRepositories {
  readonly factors: FactorStore;
  readonly challenges: ChallengeStore;
  readonly assurance: SessionAssurance;
}

export type MfaStore = MfaRepositories & Transactor<MfaRepositories>;

/** The ports the MFA use cases may use. */
export interface MfaDeps extends Omit<VerificationDeps, "store"> {
  readonly store: MfaStore;
  readonly totp: Totp;
  readonly secretBox: SecretBox;
}
