import { sliceFakes } from "../slice-fakes.js";
import { fakeProviderEndpoints } from "./fake-custom-providers.js";

/** Custom providers' settings of a default configuration, and the providers' endpoints. */
export const customProvidersFakes = sliceFakes({
  settings: { customProviders: { enabled: true, maxProviders: 0 } },
  deps: () => ({ providerEndpoints: fakeProviderEndpoints() }),
});
