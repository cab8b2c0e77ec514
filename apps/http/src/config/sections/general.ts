/** General: the site, redirects, sign-up switch, data folder. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../kinds.js";
import type { Reader } from "../reader.js";
import type { Config } from "../shape.js";
import { defineVariables } from "../variable.js";
import { must, orEmbedded, type SettleContext } from "./context.js";

const variable = defineVariables("General");
export const variables = {
  siteUrl: variable({
    key: "SITE_URL",
    kind: k.url,
    required: "unless embedded",
    computedDefault: "`http://localhost:3000` in embedded mode",
    description:
      "Base URL of the site, used in email links and as the default `redirect_to`. Any URL on its host is a permitted redirect.",
  }),
  uriAllowList: variable({
    key: "URI_ALLOW_LIST",
    kind: k.list,
    default: "",
    description:
      "Further permitted `redirect_to` URLs. Globs allowed in host and path (`https://*.example.com/*`).",
  }),
  disableSignup: variable({
    key: "DISABLE_SIGNUP",
    kind: k.boolean,
    default: "false",
    description: "When true, users can only be created by invite or by an admin.",
  }),
  dataDir: variable({
    key: "DATA_DIR",
    kind: k.text,
    default: "./.authsvc",
    description: "Folder of the embedded database and of the generated development JWT secret and SAML key.",
  }),
  operatorToken: variable({
    key: "OPERATOR_TOKEN",
    kind: k.secret(),
    description:
      "Shared secret of multi-instance mode, an inherited feature that is not supported. Read and ignored.",
  }),
};

export interface GeneralConfig {
  /** No database URL was given: the server runs its embedded database in `dataDir`. */
  readonly embedded: boolean;
  readonly siteUrl: string;
  /** `redirect_to` values permitted besides SITE_URL's host; globs. */
  readonly uriAllowList: readonly string[];
  readonly disableSignup: boolean;
  readonly dataDir: string;
  /** Multi-instance mode only (unsupported). */
  readonly operatorToken: string | undefined;
}

const EMBEDDED_SITE_URL = "http://localhost:3000";

export const read = (r: Reader) => r.getAll(variables);

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): GeneralConfig {
  const siteUrl =
    values.siteUrl ??
    orEmbedded(ctx, variables.siteUrl, () => EMBEDDED_SITE_URL, `using ${EMBEDDED_SITE_URL}`);
  return {
    embedded: ctx.embedded,
    siteUrl: must(ctx, siteUrl, variables.siteUrl),
    uriAllowList: values.uriAllowList,
    disableSignup: values.disableSignup,
    dataDir: values.dataDir,
    operatorToken: values.operatorToken,
  };
}

/** The redirect settings the use cases check `redirect_to` against. */
export function redirectSettings(
  config: Config,
): Pick<AuthSettings, "siteUrl" | "apiExternalUrl" | "uriAllowList"> {
  return {
    siteUrl: config.siteUrl,
    apiExternalUrl: config.api.externalUrl,
    uriAllowList: config.uriAllowList,
  };
}

declare module "../shape.js" {
  interface Config extends GeneralConfig {}
}
