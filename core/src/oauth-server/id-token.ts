import type { User } from "../accounts/index.js";
import { ID_TOKEN_USE, type Session } from "../sessions/index.js";
import { scopesOf } from "./authorization.js";
import type { IdTokenClaims } from "./ports/id-token-signer.js";

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** The profile claims of a user (OIDC Core §5.1), from its metadata as the reference reads it. */
function profileClaims(user: User): Record<string, unknown> {
  const meta = user.userMetadata;
  const name = text(meta.name) ?? text(meta.full_name) ?? user.email ?? undefined;
  const picture = text(meta.picture) ?? text(meta.avatar_url);
  const username = text(meta.preferred_username) ?? text(meta.username) ?? text(meta.user_name);
  return {
    ...(name ? { name } : {}),
    ...(picture ? { picture } : {}),
    ...(username ? { preferred_username: username } : {}),
    updated_at: seconds(user.updatedAt),
  };
}

/**
 * The claims of the ID token of a code exchange whose scopes hold `openid` (OIDC Core §2): valid for
 * an hour, for the client alone, with the `nonce` of the request and the time the user signed in,
 * marked `token_use: "id"`: it tells the client who signed in and is refused as a bearer token.
 */
export function idTokenClaims(input: {
  readonly user: User;
  readonly clientId: string;
  /**
   * The session the token's exchange started: its `sid` (OIDC Front- and Back-Channel Logout), which
   * logout tokens and `/oauth/logout`'s `id_token_hint` name. Not `session_id`, which would make the
   * token read as an access token (sessions/token-kind.ts).
   */
  readonly sessionId?: string;
  readonly scope: string;
  readonly nonce: string | null;
  readonly authTime: Date;
  /** The session's level and methods: `acr` (`aal1`, `aal2`) and `amr` (method names, OIDC Core §2). */
  readonly session?: Pick<Session, "aal" | "amr">;
  readonly now: Date;
  readonly issuer: string;
}): IdTokenClaims {
  const { user } = input;
  const scopes = new Set(scopesOf(input.scope));
  const iat = seconds(input.now);
  return {
    iss: input.issuer,
    sub: user.id,
    aud: [input.clientId],
    iat,
    exp: iat + 3600,
    auth_time: seconds(input.authTime),
    client_id: input.clientId,
    ...(input.sessionId ? { sid: input.sessionId } : {}),
    ...(input.session
      ? { acr: input.session.aal, amr: [...new Set(input.session.amr.map((entry) => entry.method))] }
      : {}),
    // Says what the token is for, so that no endpoint takes it for an access token (sessions/token-kind.ts).
    [ID_TOKEN_USE.claim]: ID_TOKEN_USE.value,
    ...(input.nonce ? { nonce: input.nonce } : {}),
    ...(scopes.has("email") && user.email
      ? { email: user.email, email_verified: user.emailConfirmedAt !== null }
      : {}),
    ...(scopes.has("phone") && user.phone
      ? { phone_number: user.phone, phone_number_verified: user.phoneConfirmedAt !== null }
      : {}),
    ...(scopes.has("profile") ? profileClaims(user) : {}),
  };
}

/** `GET /oauth/userinfo` (OIDC Core §5.3): `sub`, and what the session's scopes let the client see. */
export function userinfoClaims(user: User, scope: string | undefined): Record<string, unknown> {
  const scopes = new Set(scopesOf(scope ?? ""));
  return {
    sub: user.id,
    ...(scopes.has("email") && user.email
      ? { email: user.email, email_verified: user.emailConfirmedAt !== null }
      : {}),
    ...(scopes.has("phone") && user.phone
      ? { phone: user.phone, phone_verified: user.phoneConfirmedAt !== null }
      : {}),
    ...(scopes.has("profile") ? { ...profileClaims(user), user_metadata: user.userMetadata } : {}),
  };
}
