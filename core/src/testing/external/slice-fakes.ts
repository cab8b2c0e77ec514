import { sliceFakes } from "../slice-fakes.js";
import { fakeProviders } from "./fake-providers.js";

/** External sign-in's settings of a default configuration, and its providers. */
export const externalFakes = sliceFakes({
  settings: { manualLinkingEnabled: false, providerLinkingDomains: {} },
  deps: () => ({ providers: fakeProviders().providers }),
});
