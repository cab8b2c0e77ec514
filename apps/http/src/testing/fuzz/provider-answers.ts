import fc from "fast-check";
import type { JWTPayload } from "jose";
import { loneSurrogateText } from "./fields.js";

/**
 * What a hostile or broken identity provider may answer: token endpoint answers, user-info documents
 * and ID-token claims whose fields have the wrong types, are empty, hold NUL or lone surrogates, or
 * nest deeply, mixed with well-formed ones so that answers also get past the first checks.
 */
const oddText = fc.oneof(
  fc.string({ maxLength: 20 }),
  loneSurrogateText,
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "x".repeat(3_000)),
);
const deep = fc.nat({ max: 60 }).map((depth) => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { n: value };
  return value;
});
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: oddText },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(oddText, { maxLength: 3 }),
  fc.dictionary(oddText, oddText, { maxKeys: 3 }),
  deep,
);
/** Mostly a fresh, well-formed value, else anything. */
const mostly = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: good as fc.Arbitrary<unknown> }, oddValue);
const extras = fc.dictionary(oddText, oddValue, { maxKeys: 3 });

/** A person's claims (user-info or ID token): sub, email, email_verified, names, pictures, and extras. */
export const personClaims: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        sub: mostly(fc.uuid()),
        email: mostly(
          fc.oneof(
            fc.uuid().map((u) => `${u}@example.com`),
            oddText.map((t) => `${t}@example.com`),
          ),
        ),
        email_verified: mostly(fc.boolean()),
        name: oddValue,
        preferred_username: oddValue,
        picture: oddValue,
        given_name: oddValue,
        locale: oddValue,
      },
      { requiredKeys: ["sub"] },
    ),
    extras,
  )
  .map(([claims, more]) => ({ ...more, ...claims }));

/** A token endpoint's 200 answer; `null` for `access_token` keeps the fake's working one. */
export const tokenAnswer: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        access_token: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, oddValue),
        token_type: mostly(fc.constant("Bearer")),
        refresh_token: oddValue,
        expires_in: oddValue,
        scope: oddValue,
      },
      { requiredKeys: ["access_token"] },
    ),
    extras,
  )
  .map(([answer, more]) => ({ ...more, ...answer }));

/** ID-token claims beyond the person's: audience and nonce, mostly right, else of any type. */
export function idTokenClaims(clientId: string): fc.Arbitrary<JWTPayload> {
  return fc
    .tuple(
      personClaims,
      fc.record(
        {
          aud: mostly(fc.constantFrom(clientId, [clientId], [clientId, "other"])),
          nonce: oddValue,
        },
        { requiredKeys: [] },
      ),
    )
    .map(([person, protocol]) => ({ ...person, ...protocol }) as JWTPayload);
}
