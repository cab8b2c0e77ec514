import type { SessionTokens } from "@authsvc/core/sessions";
import { userJson } from "./user-json.js";

/** The token response: what sign-in, refresh and autoconfirmed sign-up answer. */
export function sessionJson(tokens: SessionTokens) {
  return {
    access_token: tokens.accessToken,
    token_type: "bearer",
    expires_in: tokens.expiresIn,
    expires_at: tokens.expiresAt,
    refresh_token: tokens.refreshToken,
    user: userJson(tokens.user),
  };
}
