import type { RelayState, SsoProvider } from "../provider.js";

/** Why a provider could not be saved: a unique key it shares with another provider. */
export type ProviderClash =
  | { readonly clash: "entity_id" }
  | { readonly clash: "domain"; readonly domain: string }
  | { readonly clash: "resource_id" };

/** The registered SAML identity providers (`sso_providers`, `saml_providers`, `sso_domains`). */
export interface SsoProviderStore {
  /** Every provider, oldest first; only those whose resource id is, or starts with, the one given. */
  list(filter: { readonly resourceId?: string; readonly resourceIdPrefix?: string }): Promise<SsoProvider[]>;
  /** The provider with this id, or null (also for a string that is no UUID). */
  findById(id: string): Promise<SsoProvider | null>;
  /** The provider with this resource id (case-insensitive), or null. */
  findByResourceId(resourceId: string): Promise<SsoProvider | null>;
  /** The provider that owns this email domain (case-insensitive), or null. */
  findByDomain(domain: string): Promise<SsoProvider | null>;
  /** The provider whose metadata names this EntityID, or null. */
  findByEntityId(entityId: string): Promise<SsoProvider | null>;
  /**
   * Inserts the provider, or replaces the stored one with its id (its domains become exactly these),
   * in one transaction: nothing is written when a unique key clashes, which is answered instead.
   */
  save(provider: SsoProvider, mode: "insert" | "update"): Promise<"saved" | "not_found" | ProviderClash>;
  /** Removes the provider, its domains and relay states; false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** SP-initiated sign-ins waiting for the identity provider's answer (`saml_relay_states`). */
export interface RelayStateStore {
  /** Stores a new relay state. */
  create(state: RelayState): Promise<void>;
  /**
   * Takes the relay state with this id: it is removed in the statement that reads it, so of two
   * concurrent takes of one id exactly one gets it. Null when there is none (also for a non-UUID).
   */
  consume(id: string): Promise<RelayState | null>;
}
