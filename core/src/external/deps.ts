import type { Transactor } from "../kernel/index.js";
import type { VerificationDeps, VerificationRepositories } from "../verification/index.js";
import type { ExternalIdentityStore } from "./ports/external-identities.js";
import type { ExternalProviders } from "./ports/external-provider.js";

/** The repositories of external sign-in: verification's (mails, flow states) and identity lookups. */
export interface ExternalRepositories extends VerificationRepositories {
  readonly externalIdentities: ExternalIdentityStore;
}

export type ExternalStore = ExternalRepositories & Transactor<ExternalRepositories>;

/** The ports the external sign-in use cases may use. */
export interface ExternalDeps extends Omit<VerificationDeps, "store"> {
  readonly store: ExternalStore;
  readonly providers: ExternalProviders;
}
