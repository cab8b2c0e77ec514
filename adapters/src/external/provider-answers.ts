import type { Metadata } from "@authsvc/core/accounts";
import type { ExternalUser } from "@authsvc/core/external";
import { isStorableText, storableText } from "@authsvc/core/kernel";
import * as v from "valibot";
import { ProviderCallError } from "./provider-call.js";

/**
 * What a provider sends is checked by type here, at the boundary, before the core sees it: a claim
 * of the wrong type is a refused answer when it identifies or authenticates (`sub`, `aud`, `nonce`,
 * `access_token`), and is dropped when it only describes (a name that is not a string).
 */

/**
 * Text that identifies someone or something (a subject, an address, a token): refused, never
 * rewritten, when Postgres cannot store it as it is, since two different values must not become one.
 */
const exactText = v.pipe(
  v.string("a string"),
  v.check(isStorableText, "text without NUL characters or lone surrogates"),
);

/** The claims of a verified ID token that decide whose it is and for whom; other claims stay as they come. */
const IdTokenClaims = v.looseObject({
  sub: v.pipe(exactText, v.nonEmpty("a non-empty string")),
  // jose checks `aud` only when told which audience to expect; ours is checked after, by membership.
  aud: v.optional(v.union([v.string(), v.array(v.string())], "a string or an array of strings")),
  // A nonce of another type is not "no nonce": the nonce rule could be skipped with it.
  nonce: v.optional(v.string("a string")),
  iss: v.optional(v.string("a string")),
});

export type CheckedIdTokenClaims = v.InferOutput<typeof IdTokenClaims>;

/** The claims when `sub`, `aud`, `nonce` and `iss` have their types; else why not (for the log). */
export function checkIdTokenClaims(
  claims: Record<string, unknown>,
): { ok: true; claims: CheckedIdTokenClaims } | { ok: false; reason: string } {
  const result = v.safeParse(IdTokenClaims, claims, { abortEarly: true });
  if (result.success) return { ok: true, claims: result.output };
  return { ok: false, reason: issueText(result.issues[0]) };
}

const optionalToken = v.pipe(
  v.optional(v.unknown()),
  v.transform((value) => (typeof value === "string" && value !== "" && isStorableText(value) ? value : null)),
);

/** A token endpoint's answer: an access token is required; a refresh or ID token of another type is none. */
const TokenAnswer = v.looseObject({
  access_token: v.pipe(exactText, v.nonEmpty("a non-empty string")),
  refresh_token: optionalToken,
  id_token: optionalToken,
});

/** The tokens of a token endpoint's answer (already known to be a JSON object without `error`). */
export function tokensOf(body: Record<string, unknown>): {
  accessToken: string;
  refreshToken: string | null;
  idToken: string | null;
} {
  const result = v.safeParse(TokenAnswer, body, { abortEarly: true });
  if (!result.success) throw new ProviderCallError(`token endpoint: ${issueText(result.issues[0])}`);
  const { access_token, refresh_token, id_token } = result.output;
  return { accessToken: access_token, refreshToken: refresh_token ?? null, idToken: id_token ?? null };
}

/** Provider data nested deeper than this is dropped (the request bodies' metadata limit). */
const MAX_DEPTH = 32;

/**
 * The person as the core may store them: the subject must be storable text as it is (else the answer
 * is refused), an address that is not is left out, and every other string and key of the identity
 * data has NUL and lone surrogates replaced (U+FFFD); values nested deeper than 32 levels are dropped.
 */
export function storablePerson(person: ExternalUser): ExternalUser {
  if (typeof person.subject !== "string" || person.subject === "" || !isStorableText(person.subject)) {
    throw new ProviderCallError("the provider's answer names no usable subject (user id)");
  }
  const emails = person.emails.filter((e) => typeof e.email === "string" && isStorableText(e.email));
  const data: Record<string, unknown> = { ...person.identityData };
  if (typeof data.email === "string" && !isStorableText(data.email)) {
    delete data.email;
    data.email_verified = false;
  }
  return { ...person, emails, identityData: storableJson(data, 1) as Metadata };
}

function storableJson(value: unknown, depth: number): unknown {
  if (typeof value === "string") return storableText(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value))
    return depth >= MAX_DEPTH ? [] : value.map((inner) => storableJson(inner, depth + 1));
  const out: Record<string, unknown> = {};
  if (depth >= MAX_DEPTH) return out;
  for (const [key, inner] of Object.entries(value)) {
    // Defined, not assigned: a provider's "__proto__" key stays a key instead of replacing the prototype.
    Object.defineProperty(out, storableText(key), {
      value: storableJson(inner, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Where and what, never the value: it may be a token. */
function issueText(issue: v.BaseIssue<unknown>): string {
  const input = issue.input;
  const got = input === null ? "null" : Array.isArray(input) ? "an array" : typeof input;
  return `${v.getDotPath(issue) ?? "answer"}: expected ${issue.message} (got ${got})`;
}
