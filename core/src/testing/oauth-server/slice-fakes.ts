import { sliceFakes } from "../slice-fakes.js";
import { fakeIdTokens } from "./fake-oauth-server.js";

/** The OAuth server's settings of a default configuration, and its ID token signer. */
export const oauthServerFakes = sliceFakes({
  settings: {
    oauthServer: {
      enabled: true,
      allowDynamicRegistration: true,
      authorizationPath: "/oauth/consent",
      builtInConsentPage: false,
      authorizationTtlSeconds: 600,
      defaultScope: "email",
      dynamicRegistrationPer5Min: 10,
      allowedResources: [],
    },
  },
  deps: () => ({ idTokens: fakeIdTokens() }),
});
