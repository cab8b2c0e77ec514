import type { IdpKey } from "@authsvc/adapters/testing";
import fc from "fast-check";
import { type FuzzKeys, fuzzText, type RequestSpec } from "./requests.js";

/**
 * Requests shaped as the SAML assertion consumer and the OAuth server's endpoints expect them — forms,
 * query strings, a registered identity provider's signed responses, a registered client's
 * credentials — with hostile values in every field, so that the fuzz gets past their first checks
 * (a random JSON body never reaches the ACS's XML or the token endpoint's grants).
 */
export interface TargetedContext {
  readonly keys: FuzzKeys;
  /** A registered SAML identity provider: responses it signs reach the verification and the account. */
  readonly saml: {
    readonly entityId: string;
    readonly key: IdpKey;
    readonly spEntityId: string;
    readonly acsUrl: string;
  };
  /** A registered confidential OAuth client. */
  readonly oauthClient: { readonly id: string; readonly secret: string; readonly redirectUri: string };
}

// The values and shapes every targeted request is built from: hostile text, forms and query strings.

export const FORM = "application/x-www-form-urlencoded";
export const hostile = fc.oneof(
  { weight: 3, arbitrary: fuzzText },
  fc.constantFrom("\u0000", "a\u0000b", "&#0;", "&#x0;", "]]>", "<x/>", "%00", "\ud800", "\udc00x"),
);
export const rawFragment = fc.constantFrom("%00", "%ED%A0%80", "%", "%zz", "%C0%80", "+", "&", "=");

/** One form field: mostly percent-encoded text, sometimes raw bytes a browser would never send. */
export function encoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}
export const formValue = fc.oneof({ weight: 5, arbitrary: hostile.map(encoded) }, rawFragment);

/** One time in eight a value, else undefined. */
export const rarely = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });

/** A form body from pairs whose values are already encoded (repeated keys kept). */
export const formOf = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([key, value]) => `${encoded(key)}=${value}`).join("&");

/** Fields of a form: the named ones (each present or not, good or hostile), plus stray ones. */
export function formFields(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const named = Object.entries(fields).map(([key, good]) =>
    fc.option(
      fc.oneof({ weight: 2, arbitrary: good.map(encoded) }, formValue).map((v) => [key, v] as const),
      { freq: 4 },
    ),
  );
  const stray = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(fields)), fuzzText), formValue), {
    maxLength: 2,
  });
  return fc
    .tuple(fc.tuple(...named), stray)
    .map(([present, more]) => formOf([...present.filter((p) => p !== null), ...more]));
}

/** A query string the same way. */
export const queryOf = formFields;

export const spec = (
  method: string,
  path: string,
  parts: { query?: string; headers?: Record<string, string>; body?: string },
): RequestSpec => ({
  method,
  path,
  query: parts.query ?? "",
  headers: parts.headers ?? {},
  body: method === "GET" ? undefined : parts.body,
});
