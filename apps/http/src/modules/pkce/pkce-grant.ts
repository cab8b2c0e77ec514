import { pkceGrant } from "@authsvc/core/pkce";
import * as v from "valibot";
import { parseBody, text } from "../../http/body.js";
import { httpGrant } from "../../http/grants/http-grant.js";
import { grantFailure } from "../../http/grants/oauth-errors.js";
import { logLogin } from "../../http/login-log.js";
import { sessionJson } from "../../http/presenters/session-json.js";

const PkceGrant = v.object({ auth_code: text, code_verifier: text });

/** `grant_type=pkce`: an authorization code and the client's code verifier. */
export const pkceHttpGrant = httpGrant(pkceGrant, {
  "/token": {
    body: PkceGrant,
    handle: async (c, json, run) => {
      const { auth_code: authCode = "", code_verifier: codeVerifier = "" } = parseBody(PkceGrant, json);
      const result = await run({ authCode, codeVerifier });
      if (!result.ok) return grantFailure(c, "/token", result.error);
      const exchanged = result.value;
      logLogin(c, { method: "pkce", userId: exchanged.tokens.user.id, provider: exchanged.providerType });
      return c.json({
        ...sessionJson(exchanged.tokens),
        // The provider's tokens of an external sign-in, as the reference adds them.
        ...(exchanged.providerAccessToken ? { provider_token: exchanged.providerAccessToken } : {}),
        ...(exchanged.providerRefreshToken ? { provider_refresh_token: exchanged.providerRefreshToken } : {}),
      });
    },
  },
});
