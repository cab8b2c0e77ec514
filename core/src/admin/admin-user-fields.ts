import type { Metadata } from "../accounts/index.js";
import { err, failures, ok, type Result } from "../kernel/index.js";

/** The JSON body of `POST /admin/users` and `PUT /admin/users/{id}`, as received (not yet validated). */
export interface AdminUserBody {
  readonly id?: unknown;
  readonly aud?: unknown;
  readonly role?: unknown;
  readonly email?: unknown;
  readonly phone?: unknown;
  readonly password?: unknown;
  readonly password_hash?: unknown;
  readonly email_confirm?: unknown;
  readonly phone_confirm?: unknown;
  readonly user_metadata?: unknown;
  readonly app_metadata?: unknown;
  readonly ban_duration?: unknown;
}

/** The admin body with its types checked; absent, `null` and (except `password`) `""` fields are left out. */
export interface AdminUserFields {
  readonly id?: string;
  readonly aud?: string;
  readonly role?: string;
  readonly email?: string;
  readonly phone?: string;
  /** Kept when empty: an update with `""` is a (too short) password, not an absent one. */
  readonly password?: string;
  readonly passwordHash?: string;
  readonly emailConfirm?: boolean;
  readonly phoneConfirm?: boolean;
  readonly userMetadata?: Metadata;
  readonly appMetadata?: Metadata;
  readonly banDuration?: string;
}

const STRINGS = {
  id: "id",
  aud: "aud",
  role: "role",
  email: "email",
  phone: "phone",
  password: "password",
  password_hash: "passwordHash",
  ban_duration: "banDuration",
} as const;
const BOOLEANS = { email_confirm: "emailConfirm", phone_confirm: "phoneConfirm" } as const;
const OBJECTS = { user_metadata: "userMetadata", app_metadata: "appMetadata" } as const;

const invalid = (field: string, type: string) => err(failures.adminFieldType(field, type));

const isObject = (value: unknown): value is Metadata =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks the types of an admin user body. JSON `null` counts as absent (the reference decodes into Go
 * zero values), and so does `""` for every field but `password`. Giving both a password and a password
 * hash is refused: it is ambiguous which one should be used to sign in.
 */
export function parseAdminUserFields(body: AdminUserBody): Result<AdminUserFields> {
  const fields: Record<string, unknown> = {};
  const raw = body as Readonly<Record<string, unknown>>;
  for (const [name, key] of Object.entries(STRINGS)) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return invalid(name, "a string");
    if (value !== "" || name === "password") fields[key] = value;
  }
  for (const [name, key] of Object.entries(BOOLEANS)) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "boolean") return invalid(name, "a boolean");
    fields[key] = value;
  }
  for (const [name, key] of Object.entries(OBJECTS)) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    if (!isObject(value)) return invalid(name, "an object");
    fields[key] = value;
  }
  if (fields.password !== undefined && fields.passwordHash !== undefined) {
    return err(failures.passwordAndHash());
  }
  return ok(fields as AdminUserFields);
}
