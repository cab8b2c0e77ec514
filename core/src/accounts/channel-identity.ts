import type { Identity, Metadata, User } from "./user.js";

/** The identities a change must write: the list as it now stands, and which of them are new or changed. */
export interface ChannelIdentities {
  readonly identities: readonly Identity[];
  readonly inserted: readonly Identity[];
  readonly updated: readonly Identity[];
}

/** The `identity_data` the reference keeps for an email or phone identity. */
function channelData(user: User, provider: "email" | "phone", current: Metadata): Metadata {
  const base = { sub: user.id, email_verified: false, phone_verified: false, ...current };
  return provider === "email"
    ? { ...base, email: user.email, email_verified: user.emailConfirmedAt !== null }
    : { ...base, phone: user.phone, phone_verified: user.phoneConfirmedAt !== null };
}

const sameData = (a: Metadata, b: Metadata): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * Brings the user's email and phone identities in line with the user row: a channel the user now has
 * but no identity for gets one (email first, as the reference orders providers), and an existing one
 * gets its address and verified flag refreshed, so `identities[].identity_data` never shows a stale
 * address after an email or phone change. A channel the user no longer has keeps its identity.
 */
export function syncChannelIdentities(
  user: User,
  identities: readonly Identity[],
  options: { now: Date; newId: () => string },
): ChannelIdentities {
  const list = [...identities];
  const inserted: Identity[] = [];
  const updated: Identity[] = [];
  for (const provider of ["email", "phone"] as const) {
    if (!(provider === "email" ? user.email : user.phone)) continue;
    const index = list.findIndex((i) => i.provider === provider && i.providerId === user.id);
    const existing = list[index];
    if (existing === undefined) {
      const identity: Identity = {
        id: options.newId(),
        providerId: user.id,
        userId: user.id,
        provider,
        identityData: channelData(user, provider, {}),
        lastSignInAt: null,
        createdAt: options.now,
        updatedAt: options.now,
      };
      list.push(identity);
      inserted.push(identity);
      continue;
    }
    const data = channelData(user, provider, existing.identityData);
    if (sameData(data, existing.identityData)) continue;
    const identity = { ...existing, identityData: data, updatedAt: options.now };
    list[index] = identity;
    updated.push(identity);
  }
  return { identities: list, inserted, updated };
}

/**
 * `app_metadata` with `providers` recomputed from the identities (distinct, in order) and `provider`
 * set to the first of them, as the reference does whenever an identity is added.
 */
export function withProviders(appMetadata: Metadata, identities: readonly Identity[]): Metadata {
  const providers = [...new Set(identities.map((i) => i.provider))];
  if (providers.length === 0) return appMetadata;
  return { ...appMetadata, provider: providers[0], providers };
}
