import { type DeviceAuthorization, startDeviceAuthorization } from "@authsvc/core/oauth-server";
import { jsonObject } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import { oauthErrorOr } from "../oauth-server/oauth.openapi-schemas.js";
import { oauthJson, requireOAuthServer } from "../oauth-server/oauth-http.js";
import { authenticated, clientFields, TYPES } from "../oauth-server/token.js";

const string = { type: "string" } as const;
const integer = { type: "integer" } as const;

const DEVICE_AUTHORIZATION = closed(
  {
    device_code: { ...string, description: "What the device polls `/oauth/token` with; keep it secret." },
    user_code: { ...string, description: "What the user types on the verification page: `XXXX-XXXX`." },
    verification_uri: { ...string, format: "uri", description: "The verification page, `/oauth/device`." },
    verification_uri_complete: {
      ...string,
      format: "uri",
      description: "The page with the code filled in (a QR code).",
    },
    expires_in: { ...integer, description: "Seconds both codes live." },
    interval: { ...integer, description: "Seconds to wait between polls." },
  },
  ["device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval"],
  "A device authorization response (RFC 8628 §3.2).",
);

const answer = (d: DeviceAuthorization) => ({
  device_code: d.deviceCode,
  user_code: d.userCode,
  verification_uri: d.verificationUri,
  verification_uri_complete: d.verificationUriComplete,
  expires_in: d.expiresIn,
  interval: d.interval,
});

/**
 * `POST /oauth/device_authorization` (RFC 8628 §3.1): the client authenticates as at the token
 * endpoint (a public client by its `client_id`), and must be registered for the device grant.
 * Counted per client address with `/oauth/authorize` (`RATE_LIMIT_OAUTH_AUTHORIZE`): each stores a
 * request for anyone who asks.
 */
export const deviceAuthorizationEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/device_authorization",
      summary: "Starts a device's request (RFC 8628 §3.1): a device code to poll with, a user code to show.",
      access: "client",
      limited: true,
      body: {
        schema: jsonObject({
          scope: { ...string, description: "Space-separated, as at `/oauth/authorize`." },
          resource: { ...string, description: "RFC 8707: the resource the tokens are for." },
          ...clientFields,
        }),
        contentTypes: TYPES,
      },
      responses: {
        200: {
          description: "The codes.",
          body: DEVICE_AUTHORIZATION,
          headers: { "cache-control": { description: "`no-store`.", required: true } },
        },
        400: oauthErrorOr("An OAuth error; a refused client authentication is `invalid_credentials`."),
        500: oauthErrorOr("`server_error`: no consent page configured, or a fault."),
      },
      errors: [404],
    },
    ({ auth }) => [
      requireOAuthServer(auth),
      async (c) => {
        // Authenticated as at the token endpoint: the method registered, assertions included.
        const authentication = await authenticated(c);
        // A client-metadata-document client whose document failed is answered there, as OAuth words.
        if (authentication instanceof Response) return authentication;
        const { body, client } = authentication;
        const started = await startDeviceAuthorization(c.get("deps"), {
          client,
          scope: body.scope,
          resource: body.resource,
        });
        return oauthJson(c, started, answer);
      },
    ],
    { limit: { name: "oauth_device_authorization", per5Min: "oauthAuthorize" } },
  ),
];
