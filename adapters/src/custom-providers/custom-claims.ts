import { type CustomProvider, type ExternalUser, PROTECTED_MAPPING_TARGETS } from "@authsvc/core";
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
  const standard: Record<string, unknown> = {};
  for (const key of STANDARD) if (raw[key] !== undefined && raw[key] !== null) standard[key] = raw[key];
  const claims: Record<string, unknown> = { ...standard };
  delete claims.email_verified;
  const custom: Record<string, unknown> = {};
  for (const key of provider.customClaimsAllowlist) if (key in raw) custom[key] = raw[key];
  if (Object.keys(custom).length > 0) claims.custom_claims = custom;
  for (const [target, source] of Object.entries(provider.attributeMapping)) {
    if (PROTECTED_MAPPING_TARGETS.includes(target)) continue;
    if (typeof source === "string") {
      if (source in standard) claims[target] = standard[source];
    } else {
      claims[target] = source;
    }
  }
  const verifiedEmail = flag(raw, "email_verified") ? text(raw, "email") : "";
  const email = typeof claims.email === "string" ? claims.email : "";
  const sub = text(raw, "sub");
  const name = typeof claims.name === "string" ? claims.name : undefined;
  const picture = typeof claims.picture === "string" ? claims.picture : undefined;
  return externalUser(
    { ...claims, sub, full_name: name, avatar_url: picture } as Claims,
    onlyEmail(email, email !== "" && email === verifiedEmail),
  );
}
