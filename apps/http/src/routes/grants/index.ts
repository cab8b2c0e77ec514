import { grantRegistry } from "@authsvc/core";
import type { HttpGrant } from "./http-grant.js";
import { idTokenHttpGrant } from "./id-token.js";
import { passwordHttpGrant } from "./password.js";
import { pkceHttpGrant } from "./pkce.js";
import { refreshTokenHttpGrant } from "./refresh-token.js";

/** The grant types `POST /token` accepts: a new grant type is one file here and one entry in this list. */
export const TOKEN_GRANTS = grantRegistry<HttpGrant>([
  passwordHttpGrant,
  refreshTokenHttpGrant,
  pkceHttpGrant,
  idTokenHttpGrant,
]);
