import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import { isObject } from "./hook-answer.js";

type Check = (value: unknown) => boolean;
const isString: Check = (v) => typeof v === "string";
const isInteger: Check = (v) => typeof v === "number" && Number.isInteger(v);

/**
 * The claims an access token must keep, with their types (reference `MinimumViableTokenSchema`):
 * what a client and PostgREST rely on. `is_anonymous` is required with any type, as there.
 */
const REQUIRED = ["aud", "exp", "iat", "sub", "email", "phone", "role", "aal", "session_id", "is_anonymous"];
const TYPES: Readonly<Record<string, readonly [string, Check]>> = {
  aud: ["string or array", (v) => typeof v === "string" || Array.isArray(v)],
  exp: ["integer", isInteger],
  jti: ["string", isString],
  iat: ["integer", isInteger],
  iss: ["string", isString],
  nbf: ["integer", isInteger],
  sub: ["string", isString],
  email: ["string", isString],
  phone: ["string", isString],
  app_metadata: ["object", isObject],
  user_metadata: ["object", isObject],
  role: ["string", isString],
  aal: ["string", isString],
  amr: ["array of strings or objects", (v) => Array.isArray(v) && v.every((i) => isString(i) || isObject(i))],
  session_id: ["string", isString],
  client_id: ["string", isString],
};

/**
 * The claims a custom access token hook answered, if they are a valid token's: an object holding
 * every required claim, each known claim of its type. Anything else is the server's fault (500), as
 * the reference answers: the hook is the operator's code.
 */
export function validAccessTokenClaims(
  answer: Readonly<Record<string, unknown>>,
): Result<Record<string, unknown>> {
  const claims = answer.claims;
  if (!isObject(claims))
    return err(failures.accessTokenClaimsInvalid(["(root): claims is required and must be an object"]));
  const problems: string[] = [];
  for (const name of REQUIRED) {
    if (!(name in claims)) problems.push(`(root): ${name} is required`);
  }
  for (const [name, [type, check]] of Object.entries(TYPES)) {
    if (name in claims && !check(claims[name])) problems.push(`${name}: Invalid type. Expected: ${type}`);
  }
  return problems.length > 0 ? err(failures.accessTokenClaimsInvalid(problems)) : ok({ ...claims });
}
