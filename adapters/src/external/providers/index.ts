import type { ProviderDefinition } from "../provider-spec.js";
import { apple } from "./apple.js";
import { azure } from "./azure.js";
import { bitbucket } from "./bitbucket.js";
import { discord } from "./discord.js";
import { facebook } from "./facebook.js";
import { figma } from "./figma.js";
import { fly } from "./fly.js";
import { github } from "./github.js";
import { gitlab } from "./gitlab.js";
import { google } from "./google.js";
import { kakao } from "./kakao.js";
import { keycloak } from "./keycloak.js";
import { linkedinOidc } from "./linkedin-oidc.js";
import { notion } from "./notion.js";
import { slackOidc } from "./slack-oidc.js";
import { snapchat } from "./snapchat.js";
import { spotify } from "./spotify.js";
import { twitch } from "./twitch.js";
import { workos } from "./workos.js";
import { x } from "./x.js";
import { zoom } from "./zoom.js";

/** Every provider, by the name used in `/authorize?provider=` and stored as the identity's provider. */
export const PROVIDER_DEFINITIONS = {
  apple,
  azure,
  bitbucket,
  discord,
  facebook,
  figma,
  fly,
  github,
  gitlab,
  google,
  kakao,
  keycloak,
  linkedin_oidc: linkedinOidc,
  notion,
  slack_oidc: slackOidc,
  snapchat,
  spotify,
  twitch,
  workos,
  x,
  zoom,
} as const satisfies Record<string, ProviderDefinition>;

export type ProviderName = keyof typeof PROVIDER_DEFINITIONS;

/** Every provider's name, in the order of the definitions: the one list of them the app reads. */
export const PROVIDER_NAMES = Object.keys(PROVIDER_DEFINITIONS) as readonly ProviderName[];
