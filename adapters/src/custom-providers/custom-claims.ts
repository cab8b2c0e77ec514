import { type CustomProvider, PROTECTED_MAPPING_TARGETS } from "@authsvc/core/custom-providers";
import type { ExternalUser } from "@authsvc/core/external";
import { type Claims, externalUser, flag, onlyEmail, text } from "../external/identity-data.js";

/** The standard claims a custom provider's answer is read for; an attribute mapping can source only these. */
const STANDARD = (
  "iss sub name family_name given_name middle_name nickname preferred_username profile picture website " +
  "email email_verified gender birthdate zoneinfo locale phone_number phone"
).split(" ");

type Mapping = Pick<CustomProvider, "customClaimsAllowlist" | "attributeMapping">;

/**
 * The person a custom provider's claims (an ID token's or the user info answer's) describe, as the
 * reference maps them: the standard claims; the allow-listed raw claims copied into `custom_claims`;
 * then each `attribute_mapping` entry writes its target with a standard claim (a string value names
 * it) or a literal (any other value). Stronger than the reference: the subject is always the
 * provider's `sub` (an empty one is refused), protected targets are skipped even if stored, and an
 * address a mapping moved into `email` counts as verified only if it is the address the provider
 * itself verified.
 */
export function customPerson(raw: Readonly<Record<string, unknown>>, provider: Mapping): ExternalUser {
  // Own keys only, and maps rather than objects while building: a claim or target named
  // `__proto__` or `toString` is data, never the objects' prototype.
  const own = (key: string) => Object.hasOwn(raw, key) && raw[key] !== undefined && raw[key] !== null;
  const standard = new Map(STANDARD.filter(own).map((key) => [key, raw[key]]));
  const claims = new Map(standard);
  claims.delete("email_verified");
  const custom = provider.customClaimsAllowlist.filter(own).map((key) => [key, raw[key]] as const);
  if (custom.length > 0) claims.set("custom_claims", Object.fromEntries(custom));
  for (const [target, source] of Object.entries(provider.attributeMapping)) {
    // `__proto__` as a target would become the identity data's prototype where it is assigned.
    if (PROTECTED_MAPPING_TARGETS.includes(target) || target === "__proto__") continue;
    if (typeof source !== "string") claims.set(target, source);
    else if (standard.has(source)) claims.set(target, standard.get(source));
  }
  const verifiedEmail = flag(raw, "email_verified") ? text(raw, "email") : "";
  const textClaim = (key: string) => {
    const value = claims.get(key);
    return typeof value === "string" ? value : undefined;
  };
  const email = textClaim("email") ?? "";
  const sub = text(raw, "sub");
  return externalUser(
    {
      ...Object.fromEntries(claims),
      sub,
      full_name: textClaim("name"),
      avatar_url: textClaim("picture"),
    } as Claims,
    onlyEmail(email, email !== "" && email === verifiedEmail),
  );
}
