import { pkceGrant } from "@authsvc/core";
import * as v from "valibot";
import { parseBody, text, unwrap } from "../../http/body.js";
import { logLogin } from "../../http/login-log.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { httpGrant } from "./http-grant.js";

const PkceGrant = v.object({ auth_code: text, code_verifier: text });

/** `grant_type=pkce`: an authorization code and the client's code verifier. */
export const pkceHttpGrant = httpGrant(
  pkceGrant,
  async (c, json, run) => {
    const { auth_code: authCode = "", code_verifier: codeVerifier = "" } = parseBody(PkceGrant, json);
    const exchanged = unwrap(await run({ authCode, codeVerifier }));
    logLogin(c, { method: "pkce", userId: exchanged.tokens.user.id, provider: exchanged.providerType });
    return c.json({
      ...sessionJson(exchanged.tokens),
      // The provider's tokens of an external sign-in, as the reference adds them.
      ...(exchanged.providerAccessToken ? { provider_token: exchanged.providerAccessToken } : {}),
      ...(exchanged.providerRefreshToken ? { provider_refresh_token: exchanged.providerRefreshToken } : {}),
    });
  },
  PkceGrant,
);
