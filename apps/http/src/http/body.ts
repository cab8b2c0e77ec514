/**
 * Request bodies: one valibot schema per route body, built from the field schemas below, and one
 * `parseBody` that turns the first issue into `400 validation_failed` naming the field. A field sent
 * as `null` counts as absent, as in the reference; absent fields are left out of the result, so a
 * use case's optional inputs receive exactly what was sent.
 */
import { AuthError, isStorableText, type Result } from "@authsvc/core/kernel";
import * as v from "valibot";

/** Limits on stored metadata: it travels in every access token, so it must stay small and plain. */
export const METADATA_MAX_BYTES = 64 * 1024;
export const METADATA_MAX_DEPTH = 32;

// Postgres text cannot hold NUL, and jsonb refuses unpaired UTF-16 surrogates.
const unstorable = (text: string) => !isStorableText(text);

/** Why Postgres could not store `value`, or why it is too large; undefined when it is fine. */
function storableProblem(value: unknown): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    if (typeof item.value === "string") {
      if (unstorable(item.value)) return "text without NUL characters or lone surrogates";
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth > METADATA_MAX_DEPTH) return `at most ${METADATA_MAX_DEPTH} levels of nesting`;
    for (const [key, inner] of Object.entries(item.value)) {
      if (unstorable(key)) return "keys without NUL characters or lone surrogates";
      stack.push({ value: inner, depth: item.depth + 1 });
    }
  }
  if (JSON.stringify(value).length > METADATA_MAX_BYTES) return `at most ${METADATA_MAX_BYTES} bytes of JSON`;
  return undefined;
}

const absentIfNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** A string; absent when null. */
export const text = v.pipe(v.nullish(v.string("a string")), v.transform(absentIfNull));

/** A string Postgres can store (no NUL, no lone surrogate): what is stored or looked up. */
export const storableString = v.pipe(
  v.string("a string"),
  v.check(isStorableText, "text without NUL characters or lone surrogates"),
);

/** A `storableString`; absent when null. */
export const storedText = v.pipe(v.nullish(storableString), v.transform(absentIfNull));

/** A string; absent when null or empty (addresses, codes). */
export const filledText = v.pipe(
  v.nullish(v.string("a string")),
  v.transform((value) => value || undefined),
);

/** A short plain string (`role`, `aud`): at most 255 characters, no NUL. */
export const shortText = v.pipe(
  v.nullish(
    v.pipe(
      v.string("a string"),
      v.check(
        (value) => value.length <= 255 && !unstorable(value),
        "at most 255 characters without NUL characters",
      ),
    ),
  ),
  v.transform(absentIfNull),
);

export const flag = v.pipe(v.nullish(v.boolean("true or false")), v.transform(absentIfNull));

const object = v.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  "an object",
);
/** Any JSON object (metadata); the OpenAPI description names it `{"type": "object"}`. */
export const OBJECT_SCHEMA = object;

/** That Postgres can store every string and key of a JSON value, and that it stays small (64 KiB, 32 levels). */
export const storableJson = <T>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    const problem = dataset.typed ? storableProblem(dataset.value) : undefined;
    if (problem !== undefined) addIssue({ message: problem });
  });

/** A metadata object that Postgres can store and that stays small (64 KiB, 32 levels). */
const storableObject = v.pipe(object, storableJson<Record<string, unknown>>());

/** Metadata (`data`, `user_metadata`, `app_metadata`); absent when null. */
export const metadata = v.pipe(v.nullish(storableObject), v.transform(absentIfNull));

/** Metadata where `null` is meaningful and kept (it deletes keys in `PUT /user`). */
export const nullableMetadata = v.optional(v.nullable(storableObject));

/** The output of a body schema without its undefined fields, which become absent ones. */
export type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops undefined fields: core's inputs are exact about optional properties. */
export function defined<T extends object>(input: T): Defined<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Defined<T>;
}

/** Checks a parsed JSON body against `schema`; the first problem is `400 validation_failed`. */
export function parseBody<S extends v.GenericSchema<unknown, object>>(
  schema: S,
  body: Record<string, unknown>,
): Defined<v.InferOutput<S>> {
  const result = v.safeParse(schema, body, { abortEarly: true });
  if (result.success) return defined(result.output);
  const issue = result.issues[0];
  const field = v.getDotPath(issue) ?? "body";
  throw new AuthError("validation_failed", `Invalid ${field}: expected ${issue.message}`);
}

/** Unwraps a use case's result: expected failures become the error response. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}
