import type { Factor, FactorCredential, Identity, Metadata, User } from "@authsvc/core/accounts";
import type { Challenge, FactorAttempts } from "@authsvc/core/mfa";
import type { AmrEntry, RefreshTokenRecord, Session } from "@authsvc/core/sessions";
import type { ISql, Row } from "postgres";
import { clampDate, timestampFromPostgres } from "./timestamps.js";

/** What the repositories run their statements on: the pool, or the transaction of `sql.begin`. */
export type Queryable = ISql;

/**
 * Whether `id` can name a uuid row (core's check, re-exported for the repositories). Ids reach the
 * repositories from paths and token claims; a malformed one means "no such row", not a Postgres cast
 * error (22P02) surfacing as a 500.
 */
export { isUuid } from "@authsvc/core/kernel";

/** A refresh token id is a bigint; anything else names no token. */
export const isTokenId = (id: string): boolean => /^[0-9]{1,19}$/.test(id);

/**
 * postgres.js gives timestamptz columns as Dates; json_agg spells them as ISO strings. Both within
 * 0001-01-01 … 9999-12-31, whatever the row holds (`infinity`, year 294276: timestamps.ts).
 */
function date(value: unknown): Date {
  if (value instanceof Date) return clampDate(value);
  if (typeof value === "string") return timestampFromPostgres(value);
  throw new TypeError(`expected a timestamp, got ${typeof value}`);
}

const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : date(value);

/** GoTrue writes '' for "no pending change/token"; the domain says null. */
const textOrNull = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : null;

/**
 * A jsonb object column as metadata. The value comes from JSON.parse, which defines every key as an own
 * data property: a "__proto__" key stays an ordinary key and never reaches a prototype.
 */
function metadata(value: unknown): Metadata {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Metadata) : {};
}

/** A jsonb parameter. Metadata is JSON by construction (it came from a JSON body or from the database). */
export const json = (sql: Queryable, value: unknown) => sql.json(value as Parameters<Queryable["json"]>[0]);

/** A `users` row (as selected with `*`) as a domain user. */
export function userFromRow(row: Row): User {
  return {
    id: row.id,
    aud: row.aud ?? "",
    role: row.role ?? "",
    email: textOrNull(row.email),
    phone: textOrNull(row.phone),
    encryptedPassword: textOrNull(row.encrypted_password),
    emailConfirmedAt: dateOrNull(row.email_confirmed_at),
    phoneConfirmedAt: dateOrNull(row.phone_confirmed_at),
    invitedAt: dateOrNull(row.invited_at),
    confirmationSentAt: dateOrNull(row.confirmation_sent_at),
    recoverySentAt: dateOrNull(row.recovery_sent_at),
    magicLinkSentAt: dateOrNull(row.magic_link_sent_at),
    emailChange: textOrNull(row.email_change),
    emailChangeSentAt: dateOrNull(row.email_change_sent_at),
    phoneChange: textOrNull(row.phone_change),
    phoneChangeSentAt: dateOrNull(row.phone_change_sent_at),
    reauthenticationSentAt: dateOrNull(row.reauthentication_sent_at),
    reauthenticationToken: textOrNull(row.reauthentication_token),
    lastSignInAt: dateOrNull(row.last_sign_in_at),
    appMetadata: metadata(row.raw_app_meta_data),
    userMetadata: metadata(row.raw_user_meta_data),
    bannedUntil: dateOrNull(row.banned_until),
    isAnonymous: row.is_anonymous === true,
    // Absent from rows that do not carry it (snapshots): an update never writes it back.
    ...(row.is_sso_user === true ? { isSsoUser: true } : {}),
    deletedAt: dateOrNull(row.deleted_at),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

/** Every column a user owns except `id`, for `update … set`. */
export function userColumns(sql: Queryable, user: User) {
  return {
    aud: user.aud,
    role: user.role,
    email: user.email,
    phone: user.phone,
    encrypted_password: user.encryptedPassword,
    email_confirmed_at: user.emailConfirmedAt,
    phone_confirmed_at: user.phoneConfirmedAt,
    invited_at: user.invitedAt,
    confirmation_sent_at: user.confirmationSentAt,
    recovery_sent_at: user.recoverySentAt,
    magic_link_sent_at: user.magicLinkSentAt,
    email_change: user.emailChange,
    email_change_sent_at: user.emailChangeSentAt,
    phone_change: user.phoneChange,
    phone_change_sent_at: user.phoneChangeSentAt,
    reauthentication_sent_at: user.reauthenticationSentAt,
    reauthentication_token: user.reauthenticationToken,
    last_sign_in_at: user.lastSignInAt,
    raw_app_meta_data: json(sql, user.appMetadata),
    raw_user_meta_data: json(sql, user.userMetadata),
    banned_until: user.bannedUntil,
    is_anonymous: user.isAnonymous,
    deleted_at: user.deletedAt,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  };
}

/** An `identities` row, from a select or from `json_agg`. */
export function identityFromRow(row: Row): Identity {
  return {
    id: row.id,
    providerId: row.provider_id,
    userId: row.user_id,
    provider: row.provider,
    identityData: metadata(row.identity_data),
    lastSignInAt: dateOrNull(row.last_sign_in_at),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function identityColumns(sql: Queryable, identity: Identity) {
  return {
    id: identity.id,
    provider_id: identity.providerId,
    user_id: identity.userId,
    provider: identity.provider,
    identity_data: json(sql, identity.identityData),
    last_sign_in_at: identity.lastSignInAt,
    created_at: identity.createdAt,
    updated_at: identity.updatedAt,
  };
}

export function sessionFromRow(row: Row): Session {
  return {
    id: row.id,
    userId: row.user_id,
    // aal3 exists in the enum (GoTrue's) but nothing issues it; null predates 0002's default.
    aal: row.aal === "aal2" ? "aal2" : "aal1",
    amr: Array.isArray(row.amr) ? (row.amr as AmrEntry[]) : [],
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    refreshedAt: dateOrNull(row.refreshed_at),
    notAfter: dateOrNull(row.not_after),
    // An OAuth client's session only; a first-party session has neither field.
    ...(row.oauth_client_id ? { oauthClientId: String(row.oauth_client_id), scopes: row.scopes ?? "" } : {}),
    ...(row.oauth_client_id && row.resource ? { resource: String(row.resource) } : {}),
    ...(row.oauth_client_id && row.oauth_client_url ? { oauthClientUrl: String(row.oauth_client_url) } : {}),
    ...(row.oauth_client_id && row.dpop_jkt ? { dpopJkt: String(row.dpop_jkt) } : {}),
  };
}

export function sessionColumns(sql: Queryable, session: Session) {
  return {
    id: session.id,
    user_id: session.userId,
    aal: session.aal,
    amr: json(sql, session.amr),
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    refreshed_at: session.refreshedAt,
    not_after: session.notAfter,
    ...(session.oauthClientId === undefined
      ? {}
      : {
          oauth_client_id: session.oauthClientId,
          scopes: session.scopes ?? "",
          ...(session.resource ? { resource: session.resource } : {}),
          ...(session.dpopJkt ? { dpop_jkt: session.dpopJkt } : {}),
        }),
  };
}

/** A `refresh_tokens` row; postgres.js gives bigint ids as strings, which is what the domain wants. */
export function refreshTokenFromRow(row: Row): RefreshTokenRecord {
  return {
    id: String(row.id),
    sessionId: row.session_id,
    userId: row.user_id,
    tokenHash: row.token_hash,
    parentId: row.parent_id === null ? null : String(row.parent_id),
    revoked: row.revoked === true,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function refreshTokenColumns(token: Omit<RefreshTokenRecord, "id">) {
  return {
    session_id: token.sessionId,
    user_id: token.userId,
    token_hash: token.tokenHash,
    parent_id: token.parentId,
    revoked: token.revoked,
    created_at: token.createdAt,
    updated_at: token.updatedAt,
  };
}

/** An `mfa_factors` row (selected with `*`, or spelled by json_agg) as a domain factor. */
const FACTOR_TYPES: ReadonlySet<unknown> = new Set<Factor["factorType"]>([
  "totp",
  "phone",
  "webauthn",
  "recovery_code",
]);

export function factorFromRow(row: Row): Factor {
  return {
    id: row.id,
    userId: row.user_id,
    friendlyName: row.friendly_name ?? "",
    factorType: FACTOR_TYPES.has(row.factor_type) ? row.factor_type : "totp",
    status: row.status === "verified" ? "verified" : "unverified",
    secret: textOrNull(row.secret),
    phone: textOrNull(row.phone),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    lastChallengedAt: dateOrNull(row.last_challenged_at),
    ...(row.web_authn_credential
      ? { webauthnCredential: factorCredentialFromJson(row.web_authn_credential) }
      : {}),
  };
}

/**
 * A WebAuthn factor's credential in the reference's column format (go-webauthn's `Credential` JSON,
 * byte strings in standard base64), so that factors move between the two servers.
 */
function factorCredentialJson(c: FactorCredential) {
  const std = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64");
  return {
    id: std(c.credentialId),
    publicKey: std(c.publicKey),
    attestationType: c.attestationType,
    transport: c.transports,
    flags: {
      userPresent: true,
      userVerified: false,
      backupEligible: c.backupEligible,
      backupState: c.backedUp,
    },
    authenticator: {
      AAGUID: c.aaguid === null ? "" : Buffer.from(c.aaguid.replaceAll("-", ""), "hex").toString("base64"),
      signCount: c.signCount,
      cloneWarning: false,
      attachment: "",
    },
  };
}

function factorCredentialFromJson(value: unknown): FactorCredential {
  const c = value as Record<string, unknown>;
  const flags = (c.flags ?? {}) as Record<string, unknown>;
  const authenticator = (c.authenticator ?? {}) as Record<string, unknown>;
  const url = (std: unknown) => Buffer.from(String(std ?? ""), "base64").toString("base64url");
  const aaguidHex = Buffer.from(String(authenticator.AAGUID ?? ""), "base64").toString("hex");
  return {
    credentialId: url(c.id),
    publicKey: url(c.publicKey),
    attestationType: String(c.attestationType ?? ""),
    aaguid:
      aaguidHex.length === 32 && !/^0+$/.test(aaguidHex)
        ? aaguidHex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5")
        : null,
    signCount: Number(authenticator.signCount ?? 0),
    transports: Array.isArray(c.transport) ? c.transport.filter((t) => typeof t === "string") : [],
    backupEligible: flags.backupEligible === true,
    backedUp: flags.backupState === true,
  };
}

export function factorColumns(sql: Queryable, factor: Factor) {
  return {
    id: factor.id,
    user_id: factor.userId,
    friendly_name: factor.friendlyName,
    factor_type: factor.factorType,
    status: factor.status,
    secret: factor.secret,
    phone: factor.phone,
    created_at: factor.createdAt,
    updated_at: factor.updatedAt,
    last_challenged_at: factor.lastChallengedAt,
    // Absent (a factor read without it) leaves the stored credential as it is.
    ...(factor.webauthnCredential === undefined
      ? {}
      : {
          web_authn_credential: factor.webauthnCredential
            ? json(sql, factorCredentialJson(factor.webauthnCredential))
            : null,
          web_authn_aaguid: factor.webauthnCredential?.aaguid ?? null,
        }),
  };
}

export function challengeFromRow(row: Row): Challenge {
  return {
    id: row.id,
    factorId: row.factor_id,
    createdAt: date(row.created_at),
    verifiedAt: dateOrNull(row.verified_at),
    ipAddress: row.ip_address,
    otpCode: textOrNull(row.otp_code),
    attempts: row.attempts ?? 0,
    ...(row.web_authn_session_data ? { webauthnState: row.web_authn_session_data } : {}),
  };
}

/** A factor's guessing state from `mfa_factor_attempts` columns (all null: never attempted). */
export function factorAttemptsFromRow(row: Row): FactorAttempts {
  return {
    failedAttempts: row.failed_attempts ?? 0,
    lockedUntil: dateOrNull(row.locked_until),
    lastTotpStep: row.last_totp_step ?? null,
  };
}
