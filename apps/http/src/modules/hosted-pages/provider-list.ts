import type { AuthDeps } from "@authsvc/core";
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

/**
 * What the sign-in page offers: the enabled built-in providers, then the enabled custom providers
 * (`custom:<name>`, read from the store at each page: an admin adds and switches them at run time)
 * when custom providers are on.
 */
export async function offeredProviders(
  ctx: ModuleContext,
  deps: Pick<AuthDeps, "settings" | "store">,
): Promise<readonly { id: string; name: string }[]> {
  const builtIn = enabledProviders(ctx);
  if (!deps.settings.customProviders.enabled) return builtIn;
  const custom = (await deps.store.customProviders.list()).filter((p) => p.enabled);
  return [...builtIn, ...custom.map((p) => ({ id: p.identifier, name: p.name }))];
}
