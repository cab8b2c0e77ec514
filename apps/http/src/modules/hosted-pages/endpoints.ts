import type { ModuleEndpoint } from "../module.js";
import { consentEndpoints } from "./consent.js";
import { emailCodeEndpoints } from "./email-code.js";
import { mfaStepEndpoints } from "./mfa-step.js";
import { providerEndpoints } from "./providers.js";
import { signInEndpoints } from "./sign-in.js";
import { staticAssetEndpoints } from "./static-assets.js";

/**
 * authsvc's hosted sign-in and consent pages, where `/oauth/authorize` sends the browser when
 * `OAUTH_SERVER_AUTHORIZATION_PATH` is empty. Forms, and script only from authsvc's own files. Two
 * guards against cross-site requests: a random value in a SameSite=Strict cookie that each form
 * repeats (double submit), and, for each step after the first, a proof of the steps before it bound
 * to the request, the user and a time (a keyed MAC of the server), so that no one but the browser
 * that signed in can go on.
 */
export const hostedPageEndpoints: readonly ModuleEndpoint[] = [
  ...signInEndpoints,
  ...emailCodeEndpoints,
  ...providerEndpoints,
  ...staticAssetEndpoints,
  ...mfaStepEndpoints,
  ...consentEndpoints,
  // A browser's pages, never another origin's script's to read (their forms carry the CSRF value).
].map((e) => ({ ...e, guards: { ...e.guards, crossOrigin: "refused" } }));
