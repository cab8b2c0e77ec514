import type { ProviderName } from "../../index.js";
import { appleCase } from "./apple.js";
import { azureCase } from "./azure.js";
import { bitbucketCase } from "./bitbucket.js";
import { discordCase } from "./discord.js";
import { facebookCase } from "./facebook.js";
import { figmaCase } from "./figma.js";
import { flyCase } from "./fly.js";
import { githubCase } from "./github.js";
import { gitlabCase } from "./gitlab.js";
import { googleCase } from "./google.js";
import { kakaoCase } from "./kakao.js";
import { keycloakCase } from "./keycloak.js";
import { linkedinOidcCase } from "./linkedin-oidc.js";
import { notionCase } from "./notion.js";
import type { ProviderCase } from "./provider-suite.js";
import { slackOidcCase } from "./slack-oidc.js";
import { snapchatCase } from "./snapchat.js";
import { spotifyCase } from "./spotify.js";
import { twitchCase } from "./twitch.js";
import { workosCase } from "./workos.js";
import { xCase } from "./x.js";
import { zoomCase } from "./zoom.js";

export type { FailureKind, FakePerson, FakeProvider } from "./fake-provider.js";
export { bearer, json, startFakeProvider } from "./fake-provider.js";
export {
  authorize,
  describeExternalProvider,
  failure,
  type ProviderCase,
  REDIRECT_URI,
  signIn,
  startCase,
} from "./provider-suite.js";

/**
 * The fake of every provider, by the name the provider definitions give it: the compiler refuses a
 * provider without a fake, or a fake of a provider that is not defined.
 */
export const PROVIDER_FAKES = {
  apple: appleCase,
  azure: azureCase,
  bitbucket: bitbucketCase,
  discord: discordCase,
  facebook: facebookCase,
  figma: figmaCase,
  fly: flyCase,
  github: githubCase,
  gitlab: gitlabCase,
  google: googleCase,
  kakao: kakaoCase,
  keycloak: keycloakCase,
  linkedin_oidc: linkedinOidcCase,
  notion: notionCase,
  slack_oidc: slackOidcCase,
  snapchat: snapchatCase,
  spotify: spotifyCase,
  twitch: twitchCase,
  workos: workosCase,
  x: xCase,
  zoom: zoomCase,
} as const satisfies Record<ProviderName, ProviderCase>;

/** The fake of every provider, with what the adapter must make of it. */
export const PROVIDER_CASES: readonly ProviderCase[] = Object.values(PROVIDER_FAKES);

export {
  appleCase,
  azureCase,
  bitbucketCase,
  discordCase,
  facebookCase,
  figmaCase,
  flyCase,
  githubCase,
  gitlabCase,
  googleCase,
  kakaoCase,
  keycloakCase,
  linkedinOidcCase,
  notionCase,
  slackOidcCase,
  snapchatCase,
  spotifyCase,
  twitchCase,
  workosCase,
  xCase,
  zoomCase,
};
