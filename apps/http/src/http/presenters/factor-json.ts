import type { Factor } from "@authsvc/core/accounts";

/**
 * A factor as the reference serialises it (models.Factor): `friendly_name` is omitted when empty,
 * `phone` is "" for a TOTP factor, `last_challenged_at` is null until the first challenge. The secret
 * never leaves.
 */
export function factorJson(factor: Omit<Factor, "secret">) {
  return {
    id: factor.id,
    created_at: factor.createdAt.toISOString(),
    updated_at: factor.updatedAt.toISOString(),
    status: factor.status,
    friendly_name: factor.friendlyName || undefined,
    factor_type: factor.factorType,
    phone: factor.phone ?? "",
    last_challenged_at: factor.lastChallengedAt?.toISOString() ?? null,
  };
}
