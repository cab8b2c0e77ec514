import type { FailureCatalogue } from "../kernel/index.js";

/**
 * The device authorization grant's failures (RFC 8628): at `/oauth/device_authorization` and when a
 * device polls `/oauth/token`, in OAuth's words (§3.5).
 */
export const oauthDeviceFailures = {
  deviceGrantTypeMissing: ["unauthorized_client", "client may not use the device authorization grant"],
  deviceCodeMissing: ["invalid_request", "device_code is required"],
  deviceCodeInvalid: ["invalid_grant", "Invalid device code"],
  deviceCodeOfAnotherClient: ["invalid_grant", "Device code was issued to another client"],
  deviceCodeSpent: ["invalid_grant", "Device code has already been used"],
  deviceCodeExpired: ["expired_token", "Device code has expired"],
  deviceAuthorizationPending: ["authorization_pending", "The user has not yet completed the authorization"],
  deviceSlowDown: [
    "slow_down",
    (interval: number) => `Polling too fast: wait ${interval} seconds between polls`,
  ],
  deviceAccessDenied: ["access_denied", "User denied the request"],
  // The verification page: every wrong, unknown, spent or expired code is refused alike.
  userCodeInvalid: ["oauth_authorization_not_found", "That code is not valid or has expired"],
} as const satisfies FailureCatalogue;
