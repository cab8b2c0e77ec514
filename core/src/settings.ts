import type { AccountSettingsSettings } from "./account-settings/settings.js";
import type { CustomProvidersSliceSettings } from "./custom-providers/settings.js";
import type { ExternalSettings } from "./external/settings.js";
import type { KernelSettings } from "./kernel/index.js";
import type { MfaSliceSettings } from "./mfa/settings.js";
import type { OAuthServerSliceSettings } from "./oauth-server/settings.js";
import type { PasskeysSliceSettings } from "./passkeys/settings.js";
import type { SessionsSettings } from "./sessions/settings.js";
import type { SsoSettings } from "./sso/settings.js";
import type { Web3Settings } from "./web3/settings.js";

/**
 * The configuration the use cases read, composed from the kernel's settings and each slice's own
 * (`<slice>/settings.ts`). A new slice with settings adds its own here.
 */
export interface AuthSettings
  extends KernelSettings,
    SessionsSettings,
    ExternalSettings,
    AccountSettingsSettings,
    MfaSliceSettings,
    PasskeysSliceSettings,
    OAuthServerSliceSettings,
    Web3Settings,
    CustomProvidersSliceSettings,
    SsoSettings {}
