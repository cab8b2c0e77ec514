import type { AuthSettings } from "@authsvc/core";
import { fakeDeps } from "@authsvc/core/testing";
import { createApp } from "../composition/app.js";
import { loadConfig } from "../composition/config.js";
import type { Config } from "../config/types.js";
import { EXTERNAL_PROVIDERS } from "../config.js";
import type { Settings } from "../infrastructure/server/settings-view.js";
import type { ServerDeps } from "../modules/module.js";
import { memoryLogger } from "./memory-log.js";

/** Settings with every provider off, as a fresh configuration gives. */
export const defaultSettings = (): Settings => ({
  external: {
    ...(Object.fromEntries(EXTERNAL_PROVIDERS.map((p) => [p, false])) as Record<
      (typeof EXTERNAL_PROVIDERS)[number],
      boolean
    >),
    email: true,
    phone: false,
    anonymous_users: false,
  },
  disable_signup: false,
  autoconfirm: false,
  mailer_autoconfirm: false,
  phone_autoconfirm: false,
  sms_provider: "",
  saml_enabled: false,
  saml_private_key_next_configured: false,
  passkeys_enabled: false,
});

let fresh: Config | undefined;

/** The configuration of an embedded server with nothing set: what a module's routes read by default. */
export function freshConfig(): Config {
  if (fresh === undefined) {
    const loaded = loadConfig({}, { devJwtSecret: () => "test-app-development-secret-0123456789" });
    if (!loaded.ok) throw new Error(`freshConfig: ${loaded.problems.join("; ")}`);
    fresh = loaded.config;
  }
  return fresh;
}

/** An app over in-memory logs and fake ports, for HTTP-level tests. */
export function testApp(overrides: Partial<ServerDeps> = {}, settings: Partial<AuthSettings> = {}) {
  const log = memoryLogger();
  const auth = fakeDeps(settings);
  const app = createApp({
    config: freshConfig(),
    logger: log.logger,
    version: "0.0.0-test",
    settings: defaultSettings(),
    auth,
    ...overrides,
  });
  return { app, log, auth };
}
