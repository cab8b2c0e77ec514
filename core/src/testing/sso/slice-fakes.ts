import { onceEach, sliceFakes } from "../slice-fakes.js";
import { fakeMetadataFetcher, fakeRelayStates, fakeSaml, fakeSsoProviders } from "./fake-sso.js";

/** SSO's settings of a default configuration, and its SAML ports. */
export const ssoFakes = sliceFakes({
  settings: {
    sso: {
      enabled: true,
      relayStateValidityMs: 120_000,
      rateLimitSsoPer5Min: 30,
      rateLimitAssertionPer5Min: 15,
    },
  },
  deps: () => ({
    ssoProviders: fakeSsoProviders(),
    relayStates: fakeRelayStates(),
    saml: fakeSaml(),
    samlMetadata: fakeMetadataFetcher(),
    samlAssertions: onceEach(),
  }),
});
