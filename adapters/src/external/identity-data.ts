import type { Metadata } from "@authsvc/core/accounts";
import type { ExternalEmail, ExternalUser } from "@authsvc/core/external";
import { ProviderCallError } from "./provider-call.js";

/**
 * The claims a provider's answer is mapped to: the reference's `provider.Claims`, whose keys become
 * the identity's `identity_data`. Empty values are left out, as the reference's `omitempty` does.
 */
export interface Claims {
  readonly iss?: string | undefined;
  readonly sub: string;
  readonly name?: string | undefined;
  readonly family_name?: string | undefined;
  readonly given_name?: string | undefined;
  readonly nickname?: string | undefined;
  readonly preferred_username?: string | undefined;
  readonly picture?: string | undefined;
  readonly locale?: string | undefined;
  readonly phone?: string | undefined;
  readonly custom_claims?: Readonly<Record<string, unknown>> | undefined;
  // The reference's older keys, still read by clients: `full_name`, `avatar_url`, `slug`, `user_name`.
  readonly full_name?: string | undefined;
  readonly avatar_url?: string | undefined;
  readonly slug?: string | undefined;
  readonly user_name?: string | undefined;
  /** Only for providers that report the address in their claims as well (the rest come from `emails`). */
  readonly email?: string | undefined;
  /** Further standard claims of an OpenID provider's ID token or user info, kept as they come. */
  readonly [claim: string]: unknown;
}

/**
 * The person as the core receives it. `email` and `email_verified` come from `emails` as the reference
 * settles them: the primary address if there is one, else the last one listed.
 */
export function externalUser(claims: Claims, emails: readonly ExternalEmail[]): ExternalUser {
  if (typeof claims.sub !== "string" || claims.sub === "") {
    throw new ProviderCallError("the provider's answer names no subject (user id)");
  }
  const listed = emails.filter((e) => e.email !== "");
  const chosen = listed.find((e) => e.primary) ?? listed.at(-1);
  const identityData: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(claims)) {
    if (value !== undefined && value !== "" && wellTyped(key, value)) identityData[key] = value;
  }
  if (chosen) identityData.email = chosen.email;
  identityData.email_verified = chosen?.verified ?? false;
  identityData.phone_verified = false;
  identityData.provider_id = claims.sub;
  return {
    subject: claims.sub,
    // The primary address first: the port promises it, and linking tries addresses in order.
    emails: [...listed.filter((e) => e.primary), ...listed.filter((e) => !e.primary)],
    identityData: identityData as Metadata,
  };
}

// Claims the reference types as strings; a provider's value of another type is left out, not stored.
const TEXT_CLAIMS = new Set(
  (
    "iss name family_name given_name middle_name nickname preferred_username profile picture website " +
    "gender birthdate zoneinfo locale phone full_name avatar_url slug user_name email"
  ).split(" "),
);

/** False for a malformed optional claim: a text claim that is not a string, custom claims that are no object. */
function wellTyped(key: string, value: unknown): boolean {
  if (TEXT_CLAIMS.has(key)) return typeof value === "string";
  if (key === "custom_claims") return value !== null && typeof value === "object" && !Array.isArray(value);
  return true;
}

/** A string field of a JSON object ("" when absent or of another type; numbers as their decimal text). */
export function text(value: unknown, key: string): string {
  if (value === null || typeof value !== "object") return "";
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" ? field : typeof field === "number" ? String(field) : "";
}

/** A boolean field of a JSON object (false when absent). */
export function flag(value: unknown, key: string): boolean {
  if (value === null || typeof value !== "object") return false;
  return (value as Record<string, unknown>)[key] === true;
}

/** A nested object field, or undefined. */
export function child(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `first last`, trimmed, as the reference joins names. */
export const fullName = (first: string, last: string): string => `${first} ${last}`.trim();

/** One address, the provider's only one: primary. */
export const onlyEmail = (email: string, verified: boolean): ExternalEmail[] =>
  email ? [{ email, verified, primary: true }] : [];
