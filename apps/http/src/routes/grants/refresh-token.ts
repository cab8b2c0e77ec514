import { refreshTokenGrant } from "@authsvc/core";
import * as v from "valibot";
import { filledText, parseBody, unwrap } from "../../http/body.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { httpGrant } from "./http-grant.js";

const RefreshGrant = v.object({ refresh_token: filledText });

/** `grant_type=refresh_token`: a refresh token for a new access token and its child. */
export const refreshTokenHttpGrant = httpGrant(
  refreshTokenGrant,
  async (c, json, run) => {
    const { refresh_token: refreshToken } = parseBody(RefreshGrant, json);
    // The reference answers a missing refresh token with an OAuth-style error body.
    if (!refreshToken)
      return c.json({ error: "invalid_request", error_description: "refresh_token required" }, 400);
    const refreshed = await run({ refreshToken });
    // An OAuth client's session is refreshed at `POST /oauth/token` only; the reference answers OAuth-style.
    if (!refreshed.ok && refreshed.error.failure === "oauthSessionNeedsItsClient")
      return c.json({ error: "invalid_client", error_description: refreshed.error.message }, 400);
    return c.json(sessionJson(unwrap(refreshed)));
  },
  RefreshGrant,
);
