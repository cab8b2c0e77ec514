import type { AccountSettingsDeps } from "./account-settings/deps.js";
import type { AccountsDeps } from "./accounts/deps.js";
import type { AdminDeps } from "./admin/deps.js";
import type { CustomProvidersDeps } from "./custom-providers/deps.js";
import type { ExternalDeps } from "./external/deps.js";
import type { HooksDeps } from "./hooks/deps.js";
import type { MfaDeps } from "./mfa/deps.js";
import type { OAuthServerDeps } from "./oauth-server/deps.js";
import type { PasskeysDeps } from "./passkeys/deps.js";
import type { PasswordlessDeps } from "./passwordless/deps.js";
import type { RecoveryDeps } from "./recovery/deps.js";
import type { SessionsDeps } from "./sessions/deps.js";
import type { SignupDeps } from "./signup/deps.js";
import type { SsoDeps } from "./sso/deps.js";
import type { Store } from "./store.js";
import type { VerificationDeps } from "./verification/deps.js";
import type { Web3Deps } from "./web3/deps.js";

/**
 * Every port a use case may need, composed from each slice's dependency types; each use case names
 * the subset it uses with `Pick`. A new slice adds its own here.
 */
export interface AuthDeps
  extends Omit<
    AccountsDeps &
      SessionsDeps &
      VerificationDeps &
      SignupDeps &
      RecoveryDeps &
      PasswordlessDeps &
      AccountSettingsDeps &
      AdminDeps &
      ExternalDeps &
      HooksDeps &
      MfaDeps &
      PasskeysDeps &
      OAuthServerDeps &
      Web3Deps &
      CustomProvidersDeps &
      SsoDeps,
    "store" | "hooks"
  > {
  readonly store: Store;
  readonly hooks: HooksDeps["hooks"];
}
