import { apiModule } from "../infrastructure/api/index.js";
import { cleanupModule } from "../infrastructure/cleanup/index.js";
import { databaseModule } from "../infrastructure/database/index.js";
import { hooksModule } from "../infrastructure/hooks/index.js";
import { jwtModule } from "../infrastructure/jwt/index.js";
import { mailModule } from "../infrastructure/mail/index.js";
import { mailApiModule } from "../infrastructure/mail-api/index.js";
import { openapiModule } from "../infrastructure/openapi/index.js";
import { rateLimitsModule } from "../infrastructure/rate-limits/index.js";
import { securityModule } from "../infrastructure/security/index.js";
import { serverModule } from "../infrastructure/server/index.js";
import { smsModule } from "../infrastructure/sms/index.js";
import { telemetryModule } from "../infrastructure/telemetry/index.js";
import { accountSettingsModule } from "../modules/account-settings/index.js";
import { adminModule } from "../modules/admin/index.js";
import { adminConsoleModule } from "../modules/admin-console/index.js";
import { customProvidersModule } from "../modules/custom-providers/index.js";
import { dpopModule } from "../modules/dpop/index.js";
import { externalModule } from "../modules/external/index.js";
import { hostedPagesModule } from "../modules/hosted-pages/index.js";
import { mfaModule } from "../modules/mfa/index.js";
import type { HttpModule } from "../modules/module.js";
import { oauthDeviceModule } from "../modules/oauth-device/index.js";
import { oauthLogoutModule } from "../modules/oauth-logout/index.js";
import { oauthServerModule } from "../modules/oauth-server/index.js";
import { passkeysModule } from "../modules/passkeys/index.js";
import { pkceModule } from "../modules/pkce/index.js";
import { sessionsModule } from "../modules/sessions/index.js";
import { signupModule } from "../modules/signup/index.js";
import { ssoModule } from "../modules/sso/index.js";
import { verificationModule } from "../modules/verification/index.js";
import { web3Module } from "../modules/web3/index.js";

/**
 * Every capability of the server, in order: routes are mounted, configuration sections documented and
 * grant types listed in this order. A new capability is a folder in modules/ and one entry here.
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
  mailApiModule,
  smsModule,
  hooksModule,
  mfaModule,
  cleanupModule,
  openapiModule,
  passkeysModule,
  oauthServerModule,
  hostedPagesModule,
  oauthLogoutModule,
  oauthDeviceModule,
  dpopModule,
  web3Module,
  customProvidersModule,
  ssoModule,
  adminConsoleModule,
];
