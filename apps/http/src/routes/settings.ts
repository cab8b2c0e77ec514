import { Hono } from "hono";
import type { ExternalProviderId } from "../config/types.js";
import type { AppEnv } from "../http/app-env.js";

/** The public settings document (spec "Settings", plus the reference's extra fields). */
export interface Settings {
  readonly external: Readonly<Record<ExternalProviderId | "email" | "phone" | "anonymous_users", boolean>>;
  readonly disable_signup: boolean;
  readonly autoconfirm: boolean;
  readonly mailer_autoconfirm: boolean;
  readonly phone_autoconfirm: boolean;
  readonly sms_provider: string;
  readonly saml_enabled: boolean;
  /** A next SAML key is configured (`SAML_PRIVATE_KEY_NEXT`): a rotation is under way. */
  readonly saml_private_key_next_configured: boolean;
  readonly passkeys_enabled: boolean;
}

/** `GET /settings`: computed once at start, so the route does no work per request. */
export const settingsRoutes = (settings: Settings) => {
  const body = JSON.stringify(settings);
  return new Hono<AppEnv>().get("/settings", (c) =>
    c.body(body, 200, { "content-type": "application/json" }),
  );
};
