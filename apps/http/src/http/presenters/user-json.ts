import { confirmedAt, type Identity, type User, type UserWithIdentities } from "@authsvc/core/accounts";
import { factorJson } from "./factor-json.js";

const iso = (date: Date | null) => (date === null ? undefined : date.toISOString());

/** An identity as the reference serialises it: `identity_id` is the row, `id` the provider's subject. */
export function identityJson(identity: Identity) {
  const email = identity.identityData.email;
  return {
    identity_id: identity.id,
    id: identity.providerId,
    user_id: identity.userId,
    identity_data: identity.identityData,
    provider: identity.provider,
    last_sign_in_at: iso(identity.lastSignInAt),
    created_at: iso(identity.createdAt),
    updated_at: iso(identity.updatedAt),
    email: typeof email === "string" ? email.toLowerCase() : undefined,
  };
}

/**
 * The user JSON as the reference serialises it (the `User` schema of docs/http-api.md): `email` and `phone` are `""` when absent (never null), unset
 * timestamps are omitted (JSON.stringify drops `undefined`), timestamps are ISO-8601 UTC.
 */
export function userJson(user: User | UserWithIdentities) {
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? "",
    email_confirmed_at: iso(user.emailConfirmedAt),
    invited_at: iso(user.invitedAt),
    phone: user.phone ?? "",
    phone_confirmed_at: iso(user.phoneConfirmedAt),
    confirmation_sent_at: iso(user.confirmationSentAt),
    confirmed_at: iso(confirmedAt(user)),
    recovery_sent_at: iso(user.recoverySentAt),
    new_email: user.emailChange ?? undefined,
    email_change_sent_at: iso(user.emailChangeSentAt),
    new_phone: user.phoneChange ?? undefined,
    phone_change_sent_at: iso(user.phoneChangeSentAt),
    reauthentication_sent_at: iso(user.reauthenticationSentAt),
    last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    // The reference omits `factors` when the user has none (`omitempty`).
    factors: "factors" in user && user.factors?.length ? user.factors.map(factorJson) : undefined,
    identities: "identities" in user ? user.identities.map(identityJson) : [],
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    banned_until: iso(user.bannedUntil),
    deleted_at: iso(user.deletedAt),
    is_anonymous: user.isAnonymous,
  };
}
