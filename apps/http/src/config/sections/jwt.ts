/** JWT: the signing secret, the signing keys and the claims of access tokens. */
import { type JwtKeyRing, parseJwtKeys } from "@authsvc/adapters";
import type { AuthSettings } from "@authsvc/core";
import * as v from "valibot";
import * as k from "../kinds.js";
import type { Reader } from "../reader.js";
import type { Config } from "../types.js";
import { defineVariables } from "../variable.js";
import { must, orEmbedded, type SettleContext } from "./context.js";

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
      "Secret that signs access tokens (HS256) unless `JWT_KEYS` is set; also keys the hashes of one-time and refresh tokens. Shorter than 16 characters is refused.",
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
  return { jwt: { ...values, secret: must(ctx, secret, variables.secret) } };
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

declare module "../types.js" {
  interface Config {
    readonly jwt: JwtConfig;
  }
}
