import type { PortTraits } from "../../kernel/index.js";
import type { CustomProvider, CustomProviderType } from "../custom-provider.js";

/** What `CustomProviderStore.create` did. */
export type CustomProviderCreation = "created" | "duplicate" | "over_quota";

/** The custom providers (`custom_oauth_providers`). */
export interface CustomProviderStore {
  /** Every provider, or those of one type, oldest first. */
  list(type?: CustomProviderType): Promise<readonly CustomProvider[]>;
  /** The provider named `identifier` (`custom:<name>`), or null. */
  find(identifier: string): Promise<CustomProvider | null>;
  /** How many providers there are. */
  count(): Promise<number>;
  /**
   * Inserts `provider` unless its identifier is taken (`duplicate`) or, with `maxProviders` above 0,
   * there are that many already (`over_quota`): counted and inserted under one lock, so concurrent
   * creations never go past the quota.
   */
  create(provider: CustomProvider, maxProviders: number): Promise<CustomProviderCreation>;
  /** Replaces the stored provider of `provider.id`; false when it is gone. */
  update(provider: CustomProvider): Promise<boolean>;
  /** Deletes the provider named `identifier`; false when there was none. */
  delete(identifier: string): Promise<boolean>;
}

/** Creation, update and deletion each commit on their own (the request deadline asks first). */
export const customProviderStoreTraits: PortTraits<CustomProviderStore> = {
  create: { commits: true },
  update: { commits: true },
  delete: { commits: true },
};
