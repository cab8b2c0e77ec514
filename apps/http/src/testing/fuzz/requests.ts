import fc from "fast-check";

/**
 * Malformed and half-valid requests for every endpoint of the app, for property tests that assert no
 * request is ever answered 5xx. Values mix the shapes handlers expect with the wrong types, huge,
 * empty, non-ASCII and control-character ones, so requests get past the first checks too.
 */
export interface Endpoint {
  method: string;
  path: string;
}

export interface RequestSpec {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** The app's own routes (Hono's `app.routes`), without middleware entries. */
export function endpointsOf(app: { routes: readonly { method: string; path: string }[] }): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const { method, path } of app.routes) {
    if (method === "ALL" || path.includes("*")) continue;
    seen.set(`${method} ${path}`, { method, path });
  }
  return [...seen.values()];
}

const FIELDS = [
  "email",
  "password",
  "phone",
  "data",
  "refresh_token",
  "token",
  "token_hash",
  "type",
  "redirect_to",
  "email_redirect_to",
  "gotrue_meta_security",
  "code_challenge",
  "code_challenge_method",
  "channel",
  "options",
  "user_metadata",
  "app_metadata",
  "ban_duration",
  "role",
  "aud",
  "email_confirm",
  "phone_confirm",
  "nonce",
  "create_user",
  "should_create_user",
  "provider",
  "id_token",
  "scope",
  "access_token",
  "auth_code",
  "code_verifier",
  "client_id",
  "issuer",
  "link_identity",
  "factor_type",
  "friendly_name",
  "challenge_id",
  "code",
  "id",
  "new_email",
  "password_hash",
  "should_soft_delete",
  "current_password",
  "__proto__",
  "constructor",
];
const QUERY_KEYS = [
  "grant_type",
  "redirect_to",
  "type",
  "token",
  "token_hash",
  "page",
  "per_page",
  "filter",
  "scope",
];

const nasty = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\ud800",
  "a\u0000b",
  "null",
  "-1",
  "1e309",
  "9".repeat(40),
  "%00",
  "%",
  "../../etc/passwd",
  "javascript:alert(1)",
  "http://evil.example.com",
  "00000000-0000-0000-0000-000000000000",
  "user@example.com",
  "new-user@example.com",
  "+15555550123",
  "password",
  "signup",
  "magiclink",
  "recovery",
  "invite",
  "email_change",
  "sms",
  "totp",
  "phone",
  "x".repeat(5_000),
);
/** Text with lone surrogates (high, low, reversed pairs) among other characters: JSON carries them as escapes. */
const loneSurrogateText = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((parts) => parts.join(""));
const text = fc.oneof(
  nasty,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  loneSurrogateText,
);
/** Hostile text: empty, NUL, lone surrogates, huge, numbers, URLs, words the endpoints know. */
export const fuzzText: fc.Arbitrary<string> = text;
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(text, scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const knownObject = fc.dictionary(
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FIELDS) }, text),
  value,
  {
    maxKeys: 6,
  },
);
const body = fc.oneof(
  { weight: 6, arbitrary: knownObject.map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom("{", '{"email":', "[]", "{}".repeat(3), '{"a":'.repeat(200)) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Header values must be Latin-1 without CR/LF for fetch to send them at all. */
const headerText = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
  fc.constantFrom("", "Bearer", "Bearer ", "Bearer a.b.c", "Basic Zm9vOmJhcg==", "eyJ.eyJ.sig"),
);

export interface FuzzKeys {
  /** Valid keys, so requests also reach the handlers behind authentication. */
  anon: string;
  serviceRole: string;
  /**
   * Stands for a signed-in user's access token, so requests also reach the user's own endpoints
   * (`/factors`, `PUT /user`); the runner puts a fresh user's token in its place (see `withUserToken`).
   */
  user?: string;
}

function headersArbitrary(keys: FuzzKeys): fc.Arbitrary<Record<string, string>> {
  const known = [keys.anon, keys.serviceRole, ...(keys.user ? [keys.user] : [])];
  const token = fc.oneof(fc.constantFrom(...known), headerText);
  return fc.record(
    {
      authorization: token.map((t) => (t.startsWith("ey") ? `Bearer ${t}` : t)),
      apikey: token,
      "content-type": fc.oneof(
        fc.constantFrom(
          "application/json",
          "application/x-www-form-urlencoded",
          "text/plain",
          "multipart/form-data",
        ),
        headerText,
      ),
      "x-supabase-api-version": fc.oneof(fc.constantFrom("2024-01-01", "2023-01-01"), headerText),
      "x-jwt-aud": headerText,
      "x-request-id": headerText,
      origin: headerText,
      cookie: headerText,
    },
    { requiredKeys: [] },
  );
}

function pathOf(endpoint: Endpoint): fc.Arbitrary<string> {
  if (!endpoint.path.includes(":")) return fc.constant(endpoint.path);
  const raw = fc.constantFrom("%", "%zz", "%ED%A0%80", "%00", "..", "%2F");
  const segment = fc.oneof(fc.uuid(), text.map(encodeSegment), raw);
  return segment.map((s) => endpoint.path.replace(/:[^/]+/g, s));
}

/** Percent-encodes `s`; a lone surrogate (which encodeURIComponent refuses) becomes its WTF-8 bytes. */
function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s) || "x";
  } catch {
    return "%ED%A0%80";
  }
}

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), text), text), { maxLength: 4 })
  .map((pairs) => new URLSearchParams(pairs).toString());

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

/** A request to one of `endpoints` (mostly with its own method), malformed in any of its parts. */
export function requestArbitrary(endpoints: readonly Endpoint[], keys: FuzzKeys): fc.Arbitrary<RequestSpec> {
  return fc
    .constantFrom(...endpoints)
    .chain((endpoint) =>
      fc.record({
        method: fc.oneof({ weight: 9, arbitrary: fc.constant(endpoint.method) }, fc.constantFrom(...METHODS)),
        path: pathOf(endpoint),
        query,
        headers: headersArbitrary(keys),
        body,
      }),
    )
    .map((spec) => (spec.method === "GET" || spec.method === "HEAD" ? { ...spec, body: undefined } : spec));
}

/** The spec as a fetch Request against `base` (an origin such as http://127.0.0.1:9999). */
export function toRequest(base: string, spec: RequestSpec, signal?: AbortSignal): Request {
  const url = `${base}${spec.path}${spec.query ? `?${spec.query}` : ""}`;
  return new Request(url, {
    method: spec.method,
    headers: spec.headers,
    // A redirect is an answer: it is checked, not followed.
    redirect: "manual",
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(signal ? { signal } : {}),
  });
}

/** How many requests a run makes: FUZZ_RUNS (npm run fuzz sets 100,000), else `fallback`. */
export function fuzzRuns(fallback: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : fallback;
}

/** The placeholder `FuzzKeys.user` for a user's token in generated requests. */
export const USER_TOKEN_PLACEHOLDER = "eyFUZZ.USER.TOKEN";

/**
 * The spec with the user-token placeholder replaced by `token()`'s (a new user each time, since an
 * earlier request may have signed the previous one out or changed its password); unchanged without it.
 */
export async function withUserToken(spec: RequestSpec, token: () => Promise<string>): Promise<RequestSpec> {
  const uses = Object.values(spec.headers).some((value) => value.includes(USER_TOKEN_PLACEHOLDER));
  if (!uses) return spec;
  const fresh = await token();
  const headers = Object.fromEntries(
    Object.entries(spec.headers).map(([key, value]) => [
      key,
      value.replaceAll(USER_TOKEN_PLACEHOLDER, fresh),
    ]),
  );
  return { ...spec, headers };
}
