import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { passwordHttpGrant } from "./password-grant.js";
import { refreshTokenHttpGrant } from "./refresh-token-grant.js";
import * as sessions from "./section.js";
import { tokenEndpoint } from "./token.js";
import { userSessionEndpoints } from "./user-sessions.js";

/** Sessions: `POST /token` with its grant types, the caller's sessions, and access-token checks. */
export const sessionsModule: HttpModule = {
  name: "sessions",
  section: sectionOf(sessions),
  settings: (config) => ({
    sessions: sessions.sessionsSettings(config),
    lockout: sessions.lockoutSettings(config),
  }),
  endpoints: [tokenEndpoint, ...userSessionEndpoints],
  grants: [passwordHttpGrant, refreshTokenHttpGrant],
  statuses: {
    bad_jwt: 403,
    no_authorization: 401,
    unexpected_audience: 403,
    session_not_found: 403,
    session_expired: 403,
    refresh_token_not_found: 400,
    refresh_token_already_used: 400,
    user_banned: 403,
    invalid_credentials: 400,
  },
  failureStatuses: {
    // The token endpoint refuses a banned user with 400; authenticated routes and /verify with 403.
    userBannedAtTokenGrant: 400,
    // POST /token with a disabled provider is 422; /otp, /magiclink and /resend answer 400.
    emailPasswordLoginsDisabled: 422,
    phonePasswordLoginsDisabled: 422,
    jwtSubNotUuid: 400,
    jwtUserMissing: 403,
    // A refresh of an ended session is a bad request at the token endpoint; an admin token whose session
    // ended keeps the code's 403.
    sessionExpired: 400,
    sessionInactive: 400,
    sessionRevokedByNewerLogin: 400,
    // Not one of the caller's sessions: a missing resource, as the reference answers a factor it cannot find.
    userSessionNotFound: 404,
  },
};
