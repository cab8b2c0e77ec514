import { EXTERNAL_PROVIDERS } from "../external/section.js";
import type { ModuleContext } from "../module.js";

/** The built-in providers' names as people know them; any other is its identifier, capitalised. */
const NAMES: Readonly<Record<string, string>> = {
  azure: "Microsoft",
  github: "GitHub",
  gitlab: "GitLab",
  linkedin_oidc: "LinkedIn",
  slack_oidc: "Slack",
  workos: "WorkOS",
};
const nameOf = (id: string) => NAMES[id] ?? `${id.charAt(0).toUpperCase()}${id.slice(1)}`;

/** The enabled external providers, in the definitions' order, as the sign-in page lists them. */
export function enabledProviders(ctx: ModuleContext): readonly { id: string; name: string }[] {
  return EXTERNAL_PROVIDERS.filter((id) => ctx.config.external[id].enabled).map((id) => ({
    id,
    name: nameOf(id),
  }));
}
