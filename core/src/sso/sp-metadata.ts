import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { SsoDeps } from "./deps.js";

/**
 * `GET /sso/saml/metadata`: the service provider's metadata for identity providers to register;
 * `download` makes it valid for 5 years (a copy an identity provider keeps).
 */
export async function samlSpMetadata(
  deps: Pick<SsoDeps, "saml" | "clock" | "settings">,
  input: { readonly download: boolean },
): Promise<Result<{ xml: string; rotating: boolean }>> {
  if (!deps.settings.sso.enabled) return err(failures.samlDisabled());
  const xml = await deps.saml.metadata({ download: input.download, now: deps.clock.now() });
  return ok({ xml, rotating: deps.saml.rotating });
}
