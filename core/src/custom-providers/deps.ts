import type { KernelDeps, KernelSettings } from "../kernel/index.js";
import type { SecretBox } from "../mfa/index.js";
import type { CustomProviderStore } from "./ports/custom-provider-store.js";
import type { ProviderEndpoints } from "./ports/provider-endpoints.js";
import type { CustomProvidersSliceSettings } from "./settings.js";

/** The repositories of custom providers. */
export interface CustomProvidersRepositories {
  readonly customProviders: CustomProviderStore;
}

/** The ports the custom provider use cases may use. */
export interface CustomProvidersDeps extends KernelDeps {
  readonly settings: KernelSettings & CustomProvidersSliceSettings;
  readonly store: CustomProvidersRepositories;
  /** Seals client secrets, bound to the provider's id. */
  readonly secretBox: SecretBox;
  readonly providerEndpoints: ProviderEndpoints;
}
