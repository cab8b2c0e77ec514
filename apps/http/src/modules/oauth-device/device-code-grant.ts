import { deviceCodeGrant } from "@authsvc/core/oauth-server";
import { httpGrant } from "../../http/grants/http-grant.js";

/** `grant_type=urn:ietf:params:oauth:grant-type:device_code` at `POST /oauth/token` (RFC 8628 §3.4): a device's poll. */
export const deviceCodeHttpGrant = httpGrant(deviceCodeGrant, {
  "/oauth/token": { read: (form, client) => ({ client, deviceCode: form.device_code ?? "" }) },
});
