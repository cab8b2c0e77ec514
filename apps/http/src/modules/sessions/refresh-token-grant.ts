import { refreshTokenGrant } from "@authsvc/core/sessions";
import * as v from "valibot";
import { filledText, parseBody } from "../../http/body.js";
import { httpGrant } from "../../http/grants/http-grant.js";
import { grantFailure, oauthError } from "../../http/grants/oauth-errors.js";
import { sessionJson } from "../../http/presenters/session-json.js";

const RefreshGrant = v.object({ refresh_token: filledText });

/**
 * `grant_type=refresh_token` at `POST /token`: a first-party session's refresh token for a new access
 * token and its child (an OAuth client's is refreshed at `POST /oauth/token`, client-refresh-token.ts).
 */
export const refreshTokenHttpGrant = httpGrant(refreshTokenGrant, {
  "/token": {
    body: RefreshGrant,
    handle: async (c, json, run) => {
      const { refresh_token: refreshToken } = parseBody(RefreshGrant, json);
      // The reference answers a missing refresh token with an OAuth-style error body.
      if (!refreshToken) return oauthError(c, "invalid_request", "refresh_token required");
      const refreshed = await run({ refreshToken });
      if (!refreshed.ok) return grantFailure(c, "/token", refreshed.error);
      return c.json(sessionJson(refreshed.value));
    },
  },
});
