import { fakeSecretBox } from "../mfa/fake-mfa.js";
import { sliceFakes } from "../slice-fakes.js";
import { fakeClientAssertions, fakeIdTokens } from "./fake-oauth-server.js";

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
      parTtlSeconds: 60,
      requirePushedAuthorizationRequests: false,
      clientAssertionMaxLifetimeSeconds: 300,
      clientCredentialsRole: "anon",
      refreshTokenNeedsOfflineAccess: false,
    },
    oauthDevice: { codeTtlSeconds: 600, intervalSeconds: 5 },
  },
  deps: () => ({
    idTokens: fakeIdTokens(),
    clientAssertions: fakeClientAssertions(),
    clientSecretBox: fakeSecretBox(),
    clientDocuments: { fetch: async () => ({ ok: false as const, problem: "no documents in this test" }) },
  }),
});
