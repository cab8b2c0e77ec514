import type { AccountSettingsDeps, AccountSettingsRepositories } from "./account-settings/deps.js";
import type { AccountSettingsSettings } from "./account-settings/settings.js";
import type { AccountsDeps, AccountsRepositories } from "./accounts/deps.js";
import {
  auditLogTraits,
  leakedPasswordsTraits,
  passwordHasherTraits,
  signInFailuresTraits,
} from "./accounts/index.js";
import type { AdminDeps, AdminRepositories } from "./admin/deps.js";
import type { CustomProvidersDeps, CustomProvidersRepositories } from "./custom-providers/deps.js";
import { customProviderStoreTraits } from "./custom-providers/index.js";
import type { CustomProvidersSliceSettings } from "./custom-providers/settings.js";
import type { DpopDeps } from "./dpop/deps.js";
import type { DpopSettings } from "./dpop/settings.js";
import type { ExternalDeps, ExternalRepositories } from "./external/deps.js";
import type { ExternalSettings } from "./external/settings.js";
import type { HooksDeps } from "./hooks/deps.js";
import { type HooksRepositories, hookDispatcherTraits } from "./hooks/index.js";
import { defineSlice } from "./kernel/index.js";
import type { MessagingDeps, MessagingRepositories } from "./messaging/deps.js";
import { sendQuotaTraits } from "./messaging/index.js";
import type { MessagingSliceSettings } from "./messaging/settings.js";
import type { MfaDeps, MfaRepositories } from "./mfa/deps.js";
import type { MfaSliceSettings } from "./mfa/settings.js";
import type { OAuthServerDeps, OAuthServerRepositories } from "./oauth-server/deps.js";
import type { OAuthServerSliceSettings } from "./oauth-server/settings.js";
import type { PasskeysDeps, PasskeysRepositories } from "./passkeys/deps.js";
import type { PasskeysSliceSettings } from "./passkeys/settings.js";
import type { PasswordlessDeps, PasswordlessRepositories } from "./passwordless/deps.js";
import type { PkceDeps, PkceRepositories } from "./pkce/deps.js";
import type { RecoveryDeps, RecoveryRepositories } from "./recovery/deps.js";
import type { SessionsDeps, SessionsRepositories } from "./sessions/deps.js";
import { sessionStoreTraits } from "./sessions/index.js";
import type { SessionsSettings } from "./sessions/settings.js";
import type { SignupDeps, SignupRepositories } from "./signup/deps.js";
import type { SsoDeps, SsoRepositories } from "./sso/deps.js";
import type { SsoSettings } from "./sso/settings.js";
import type { VerificationDeps, VerificationRepositories } from "./verification/deps.js";
import type { Web3Deps, Web3Repositories } from "./web3/deps.js";
import type { Web3Settings } from "./web3/settings.js";

/**
 * Every slice with ports, repositories, settings or port traits of its own, each once: its deps and
 * repositories (`<slice>/deps.ts`), its settings (`<slice>/settings.ts`) and the traits it declares
 * beside its ports. `AuthDeps` (deps.ts), `Repositories` and `Store` (store.ts), `AuthSettings`
 * (settings.ts), `storeTraits` and `depsTraits` (port-traits.ts) are derived from this list, so a new
 * slice is one entry here. Its failures are one entry in `failures.ts`, kept apart: every use case
 * imports that catalogue, and a catalogue built from this list would import every slice's deps back.
 */
export const SLICES = {
  accounts: defineSlice<{ deps: AccountsDeps; repositories: AccountsRepositories }>({
    storeTraits: { audit: auditLogTraits },
    depsTraits: { hasher: passwordHasherTraits, leakedPasswords: leakedPasswordsTraits },
  }),
  sessions: defineSlice<{
    deps: SessionsDeps;
    repositories: SessionsRepositories;
    settings: SessionsSettings;
  }>({ storeTraits: { sessions: sessionStoreTraits } }),
  pkce: defineSlice<{ deps: PkceDeps; repositories: PkceRepositories }>(),
  messaging: defineSlice<{
    deps: MessagingDeps;
    repositories: MessagingRepositories;
    settings: MessagingSliceSettings;
  }>({
    storeTraits: { quota: sendQuotaTraits },
  }),
  verification: defineSlice<{ deps: VerificationDeps; repositories: VerificationRepositories }>(),
  signup: defineSlice<{ deps: SignupDeps; repositories: SignupRepositories }>(),
  recovery: defineSlice<{ deps: RecoveryDeps; repositories: RecoveryRepositories }>(),
  passwordless: defineSlice<{ deps: PasswordlessDeps; repositories: PasswordlessRepositories }>(),
  accountSettings: defineSlice<{
    deps: AccountSettingsDeps;
    repositories: AccountSettingsRepositories;
    settings: AccountSettingsSettings;
  }>(),
  // The lockout's counters (`signInFailures`) are the admin's repository too (its unlock), and the
  // password grant's and /verify's beside their slices' own.
  admin: defineSlice<{ deps: AdminDeps; repositories: AdminRepositories }>({
    storeTraits: { signInFailures: signInFailuresTraits },
  }),
  external: defineSlice<{
    deps: ExternalDeps;
    repositories: ExternalRepositories;
    settings: ExternalSettings;
  }>(),
  // Hook functions are the store's alone: a hook runs with no transaction of a use case open.
  hooks: defineSlice<{ deps: HooksDeps; store: HooksRepositories }>({
    depsTraits: { hooks: hookDispatcherTraits },
  }),
  mfa: defineSlice<{ deps: MfaDeps; repositories: MfaRepositories; settings: MfaSliceSettings }>(),
  passkeys: defineSlice<{
    deps: PasskeysDeps;
    repositories: PasskeysRepositories;
    settings: PasskeysSliceSettings;
  }>(),
  oauthServer: defineSlice<{
    deps: OAuthServerDeps;
    repositories: OAuthServerRepositories;
    settings: OAuthServerSliceSettings;
  }>(),
  web3: defineSlice<{ deps: Web3Deps; repositories: Web3Repositories; settings: Web3Settings }>(),
  customProviders: defineSlice<{
    deps: CustomProvidersDeps;
    repositories: CustomProvidersRepositories;
    settings: CustomProvidersSliceSettings;
  }>({ storeTraits: { customProviders: customProviderStoreTraits } }),
  sso: defineSlice<{ deps: SsoDeps; repositories: SsoRepositories; settings: SsoSettings }>(),
  dpop: defineSlice<{ deps: DpopDeps; settings: DpopSettings }>(),
};

/** The list's type, from which the composed types are read (`Composed<Slices, "deps">`). */
export type Slices = typeof SLICES;
