import type { AuthDeps } from "../deps.js";
import type { Intersection } from "../kernel/index.js";
import type { AuthSettings } from "../settings.js";
import { accountSettingsFakes } from "./account-settings/slice-fakes.js";
import { accountsFakes } from "./accounts/slice-fakes.js";
import { customProvidersFakes } from "./custom-providers/slice-fakes.js";
import { dpopFakes } from "./dpop/slice-fakes.js";
import { externalFakes } from "./external/slice-fakes.js";
import { fakeStore } from "./fake-store.js";
import { hooksFakes } from "./hooks/slice-fakes.js";
import { fixedClock } from "./kernel/fakes.js";
import { kernelFakes } from "./kernel/slice-fakes.js";
import { messagingFakes } from "./messaging/slice-fakes.js";
import { mfaFakes } from "./mfa/slice-fakes.js";
import { oauthServerFakes } from "./oauth-server/slice-fakes.js";
import { passkeysFakes } from "./passkeys/slice-fakes.js";
import { sessionsFakes } from "./sessions/slice-fakes.js";
import { ssoFakes } from "./sso/slice-fakes.js";
import { web3Fakes } from "./web3/slice-fakes.js";

/**
 * Every slice's fakes (`testing/<slice>/slice-fakes.ts`: its settings' defaults and its ports'
 * fakes), each once: a new slice with ports or settings of its own is one entry here.
 */
const SLICE_FAKES = [
  kernelFakes,
  accountsFakes,
  sessionsFakes,
  messagingFakes,
  accountSettingsFakes,
  externalFakes,
  hooksFakes,
  mfaFakes,
  passkeysFakes,
  web3Fakes,
  oauthServerFakes,
  customProvidersFakes,
  ssoFakes,
  dpopFakes,
] as const;

type Fakes = (typeof SLICE_FAKES)[number];

/** The settings of a default configuration. */
export function defaultAuthSettings(overrides: Partial<AuthSettings> = {}): AuthSettings {
  const defaults: Intersection<Fakes["settings"]> = Object.assign({}, ...SLICE_FAKES.map((f) => f.settings));
  return { ...defaults, ...overrides };
}

/** Fakes for every port, with handles to inspect them. */
export function fakeDeps(settings: Partial<AuthSettings> = {}) {
  const clock = fixedClock();
  const ports: Intersection<ReturnType<Fakes["deps"]>> = Object.assign(
    {},
    ...SLICE_FAKES.map((f) => f.deps({ clock })),
  );
  // Every port of every slice has its fake: a slice missing from the list fails here.
  return { store: fakeStore(), clock, settings: defaultAuthSettings(settings), ...ports } satisfies AuthDeps;
}
