import { accountSettingsModule } from "./account-settings/index.js";
import { adminModule } from "./admin/index.js";
import { apiModule } from "./api/index.js";
import { cleanupModule } from "./cleanup/index.js";
import { customProvidersModule } from "./custom-providers/index.js";
import { databaseModule } from "./database/index.js";
import { externalModule } from "./external/index.js";
import { hooksModule } from "./hooks/index.js";
import { jwtModule } from "./jwt/index.js";
import { mailModule } from "./mail/index.js";
import { mfaModule } from "./mfa/index.js";
import type { HttpModule } from "./module.js";
import { oauthServerModule } from "./oauth-server/index.js";
import { openapiModule } from "./openapi/index.js";
import { passkeysModule } from "./passkeys/index.js";
import { pkceModule } from "./pkce/index.js";
import { rateLimitsModule } from "./rate-limits/index.js";
import { securityModule } from "./security/index.js";
import { serverModule } from "./server/index.js";
import { sessionsModule } from "./sessions/index.js";
import { signupModule } from "./signup/index.js";
import { smsModule } from "./sms/index.js";
import { ssoModule } from "./sso/index.js";
import { telemetryModule } from "./telemetry/index.js";
import { verificationModule } from "./verification/index.js";
import { web3Module } from "./web3/index.js";

/**
 * Every capability of the server, in order: routes are mounted, configuration sections documented and
 * grant types listed in this order. A new capability is a folder beside this file and one entry here.
 */
export const MODULES: readonly HttpModule[] = [
  serverModule,
  apiModule,
  databaseModule,
  telemetryModule,
  jwtModule,
  securityModule,
  signupModule,
  sessionsModule,
  pkceModule,
  accountSettingsModule,
  adminModule,
  verificationModule,
  rateLimitsModule,
  externalModule,
  mailModule,
  smsModule,
  hooksModule,
  mfaModule,
  cleanupModule,
  openapiModule,
  passkeysModule,
  oauthServerModule,
  web3Module,
  customProvidersModule,
  ssoModule,
];
