/** JWT: the signing secret, the signing keys and the claims of access tokens. */
import { type JwtKeyRing, parseJwtKeys } from "@authsvc/adapters";
import type { AuthSettings } from "@authsvc/core";
import * as v from "valibot";
import * as k from "../../config/kinds.js";
import { isPublishedJwtSecret } from "../../config/published-secrets.js";
import type { Reader } from "../../config/reader.js";
import { must, orEmbedded, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

/** File name, inside AUTHSVC_DATA_DIR, under which callers keep the development JWT secret. */
export const DEV_JWT_SECRET_FILE = "jwt-secret";
const LEAST_JWT_SECRET_LENGTH = 16;

/**
 * `JWT_KEYS`: the whole key set is read and checked at start (adapters/src/crypto/jwt-keys.ts); its
 * problems, one per key, make one message that never quotes key material.
 */
const jwtKeys: k.Kind<JwtKeyRing> = {
  type: "JSON array of JWKs",
  schema: v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const result = parseJwtKeys(dataset.value);
      if (result.ok) return result.ring;
      addIssue({ message: result.problems.join("; ") });
      return NEVER;
    }),
  ),
};

const variable = defineVariables("JWT");
export const variables = {
  secret: variable({
    key: "JWT_SECRET",
    kind: k.secret(LEAST_JWT_SECRET_LENGTH),
    required: "unless embedded",
    computedDefault: "a generated development secret in embedded mode",
    description:
      "Secret that signs access tokens (HS256) unless `JWT_KEYS` is set; also keys the hashes of one-time and refresh tokens. Shorter than 16 characters is refused, and so is, outside embedded mode, a secret published in example files (Supabase's `super-secret-jwt-token-with-at-least-32-characters-long` and the like; see `JWT_ALLOW_PUBLISHED_SECRET`).",
  }),
  allowPublishedSecret: variable({
    key: "JWT_ALLOW_PUBLISHED_SECRET",
    kind: k.boolean,
    default: "false",
    description:
      "Accept a published JWT secret (in `JWT_SECRET` or as an HS256 key of `JWT_KEYS`) outside embedded mode: only for test suites whose fixed API keys are signed with one. Anyone can sign admin tokens with such a secret; never set this in production.",
  }),
  keys: variable({
    key: "JWT_KEYS",
    kind: jwtKeys,
    description:
      'Signing keys: a JSON array of private JWKs (HS256, RS256, RS512, ES256, ES512, EdDSA) with unique `kid`s; the one with `"sign"` in `key_ops` signs, every key verifies. Public keys at `/.well-known/jwks.json`. Unset: HS256 with `JWT_SECRET`. See docs/signing-keys.md; `authsvc keys` generates a set.',
  }),
  exp: variable({
    key: "JWT_EXP",
    kind: k.seconds({ min: 1 }),
    default: "3600",
    description: "Access token lifetime.",
  }),
  aud: variable({ key: "JWT_AUD", kind: k.text, default: "authenticated", description: "Default audience." }),
  issuer: variable({
    key: "JWT_ISSUER",
    kind: k.text,
    description: "`iss` claim; left out of tokens when unset.",
  }),
  adminGroupName: variable({
    key: "JWT_ADMIN_GROUP_NAME",
    kind: k.text,
    default: "admin",
    description: "Admin group name (inherited feature).",
  }),
  defaultGroupName: variable({
    key: "JWT_DEFAULT_GROUP_NAME",
    kind: k.text,
    default: "authenticated",
    description: "Role of new users.",
  }),
  adminRoles: variable({
    key: "JWT_ADMIN_ROLES",
    kind: k.list,
    default: "service_role,supabase_admin",
    description: "`role` claim values that may call the admin endpoints.",
  }),
};

export interface JwtConfig {
  readonly secret: string;
  /** `JWT_KEYS`, checked; undefined: HS256 with `secret`. */
  readonly keys: JwtKeyRing | undefined;
  /** Access token lifetime, seconds. */
  readonly exp: number;
  readonly aud: string;
  /** `iss` claim; omitted from tokens when undefined. */
  readonly issuer: string | undefined;
  readonly adminGroupName: string;
  readonly defaultGroupName: string;
  /** `role` claim values that count as admin. */
  readonly adminRoles: readonly string[];
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): { jwt: JwtConfig } {
  const { allowPublishedSecret, ...jwtValues } = values;
  if (!ctx.embedded && !allowPublishedSecret) refusePublishedSecrets(values, ctx);
  const { dataDir } = ctx;
  const secretFile = `${dataDir.replace(/\/+$/, "")}/${DEV_JWT_SECRET_FILE}`;
  const secret =
    values.secret ??
    orEmbedded(
      ctx,
      variables.secret,
      () => devSecret(ctx, dataDir),
      `using the development secret kept in ${secretFile}`,
    );
  return { jwt: { ...jwtValues, secret: must(ctx, secret, variables.secret) } };
}

/**
 * A secret from public example files lets anyone sign tokens for this server. Embedded mode runs on a
 * developer's machine and may keep one; a server on a real database may not. The secret is not quoted.
 */
function refusePublishedSecrets(values: ReturnType<typeof read>, ctx: SettleContext): void {
  const why = `anyone can sign tokens with it; make one of your own (openssl rand -base64 48), or set ${variables.allowPublishedSecret.name}=true for a test suite`;
  if (values.secret !== undefined && isPublishedJwtSecret(values.secret))
    ctx.r.problem(variables.secret.name, `this secret is published in example files: ${why}`);
  for (const key of values.keys?.byKid.values() ?? []) {
    if (key.alg !== "HS256") continue;
    const bytes = key.verifyingKey.export();
    if (isPublishedJwtSecret(bytes.toString("utf8")))
      ctx.r.problem(variables.keys.name, `key "${key.kid}" is a published secret (example files): ${why}`);
  }
}

function devSecret(ctx: SettleContext, dataDir: string): string | undefined {
  if (ctx.devJwtSecret === undefined) {
    ctx.r.missing(variables.secret);
    return undefined;
  }
  const secret = ctx.devJwtSecret(dataDir);
  if (secret.length >= LEAST_JWT_SECRET_LENGTH) return secret;
  ctx.r.problem(
    variables.secret.name,
    `the development secret is shorter than ${LEAST_JWT_SECRET_LENGTH} characters`,
  );
  return undefined;
}

/** The claims the sessions slice puts in access tokens. */
export function jwtSettings(config: Config): AuthSettings["jwt"] {
  const { exp, aud, issuer, defaultGroupName, adminRoles } = config.jwt;
  return { exp, aud, issuer, defaultRole: defaultGroupName, adminRoles };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly jwt: JwtConfig;
  }
}
