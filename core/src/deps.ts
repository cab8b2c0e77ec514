import type { AccountSettingsDeps } from "./account-settings/index.js";
import type { AccountsDeps } from "./accounts/index.js";
import type { AdminDeps } from "./admin/index.js";
import type { ExternalDeps } from "./external/index.js";
import type { HooksDeps } from "./hooks/index.js";
import type { MfaDeps } from "./mfa/index.js";
import type { PasswordlessDeps } from "./passwordless/index.js";
import type { RecoveryDeps } from "./recovery/index.js";
import type { SessionsDeps } from "./sessions/index.js";
import type { SignupDeps } from "./signup/index.js";
import type { Store } from "./store.js";
import type { VerificationDeps } from "./verification/index.js";

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
      MfaDeps,
    "store"
  > {
  readonly store: Store;
}
