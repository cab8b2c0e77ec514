import fc from "fast-check";

/**
 * Well-formed requests of every endpoint that reads a JSON body, each with one of its string fields
 * (or a key) replaced by text holding lone surrogates: whatever the field, the answer must be a
 * refusal, never a 5xx.
 */
export interface FieldCase {
  readonly method: string;
  readonly path: string;
  readonly query?: string;
  /** Which credentials the request carries. */
  readonly as: "anon" | "service_role" | "user";
  readonly body: Readonly<Record<string, unknown>>;
}

const ID = "11111111-1111-4111-8111-111111111111";

export const FIELD_CASES: readonly FieldCase[] = [
  {
    method: "POST",
    path: "/signup",
    as: "anon",
    body: { email: "a@example.com", password: "secret-pw-1", data: { nick: "a" }, code_challenge: "c" },
  },
  {
    method: "POST",
    path: "/token",
    query: "grant_type=password",
    as: "anon",
    body: { email: "a@example.com", password: "pw" },
  },
  {
    method: "POST",
    path: "/token",
    query: "grant_type=refresh_token",
    as: "anon",
    body: { refresh_token: "abc" },
  },
  {
    method: "POST",
    path: "/token",
    query: "grant_type=pkce",
    as: "anon",
    body: { auth_code: ID, code_verifier: "v".repeat(43) },
  },
  {
    method: "POST",
    path: "/token",
    query: "grant_type=id_token",
    as: "anon",
    body: { provider: "google", id_token: "a.b.c", nonce: "n", access_token: "t" },
  },
  {
    method: "POST",
    path: "/otp",
    as: "anon",
    body: { email: "a@example.com", data: { nick: "a" }, create_user: true },
  },
  { method: "POST", path: "/magiclink", as: "anon", body: { email: "a@example.com" } },
  { method: "POST", path: "/recover", as: "anon", body: { email: "a@example.com" } },
  { method: "POST", path: "/resend", as: "anon", body: { type: "signup", email: "a@example.com" } },
  {
    method: "POST",
    path: "/verify",
    as: "anon",
    body: { type: "signup", email: "a@example.com", token: "123456" },
  },
  {
    method: "PUT",
    path: "/user",
    as: "user",
    body: { data: { nick: "b" }, nonce: "n", email: "b@example.com" },
  },
  {
    method: "POST",
    path: "/factors",
    as: "user",
    body: { factor_type: "totp", friendly_name: "f", issuer: "Acme" },
  },
  { method: "POST", path: `/factors/${ID}/challenge`, as: "user", body: { channel: "sms" } },
  { method: "POST", path: `/factors/${ID}/verify`, as: "user", body: { challenge_id: ID, code: "123456" } },
  {
    method: "POST",
    path: "/admin/users",
    as: "service_role",
    body: {
      email: "c@example.com",
      password: "pw-secret",
      user_metadata: { a: "b" },
      app_metadata: { c: "d" },
      role: "authenticated",
    },
  },
  {
    method: "PUT",
    path: `/admin/users/${ID}`,
    as: "service_role",
    body: { email: "d@example.com", user_metadata: { a: "b" } },
  },
  { method: "POST", path: "/invite", as: "service_role", body: { email: "e@example.com", data: { a: "b" } } },
  {
    method: "POST",
    path: "/admin/generate_link",
    as: "service_role",
    body: { type: "signup", email: "f@example.com", password: "pw-secret", data: { a: "b" } },
  },
];

/** Text with at least one lone surrogate (high or low) among other characters. */
export const loneSurrogateText: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 6 }),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
    fc.string({ maxLength: 6 }),
  )
  .map(([before, unit, after]) => `${before}${unit}${after}`);

/** Every path to a string in `body` (`["data", "nick"]`), and every key's path. */
function stringPaths(body: Readonly<Record<string, unknown>>, prefix: string[] = []): string[][] {
  return Object.entries(body).flatMap(([key, value]) => {
    const at = [...prefix, key];
    if (typeof value === "string") return [at];
    if (value !== null && typeof value === "object") return stringPaths(value as Record<string, unknown>, at);
    return [at];
  });
}

function replaced(
  body: Readonly<Record<string, unknown>>,
  path: readonly string[],
  value: string,
  key: boolean,
) {
  const copy = structuredClone(body) as Record<string, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
  const last = path.at(-1) as string;
  if (key) {
    parent[value] = parent[last];
    delete parent[last];
  } else parent[last] = value;
  return copy;
}

/** One case with one field's value (or its key) replaced by lone-surrogate text. */
export const fieldCaseArbitrary: fc.Arbitrary<FieldCase> = fc
  .constantFrom(...FIELD_CASES)
  .chain((c) =>
    fc
      .record({ path: fc.constantFrom(...stringPaths(c.body)), text: loneSurrogateText, key: fc.boolean() })
      .map(({ path, text, key }) => ({ ...c, body: replaced(c.body, path, text, key) })),
  );
