/** Mail through a provider's HTTP API instead of SMTP: which one, and each one's credentials. */
import type * as k from "../../config/kinds.js";
import { oneOf } from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { must, type SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";
import { serverVariables as smtpVariables } from "../mail/section.js";
import { MAIL_APIS } from "./providers.js";

const ids = MAIL_APIS.map((api) => api.id) as [string, ...string[]];

const variable = defineVariables("Mail provider APIs");
export const mailApiVariables = {
  provider: variable({
    key: "MAILER_PROVIDER",
    kind: oneOf(ids) as k.Kind<string>,
    description:
      "Send mail through this provider's HTTP API instead of SMTP; its variables below become required, and `AUTHSVC_SMTP_ADMIN_EMAIL` (with `AUTHSVC_SMTP_SENDER_NAME`) gives the sender, whose domain the provider must have verified. Unset: SMTP (`AUTHSVC_SMTP_HOST`).",
  }),
};

/** Every variable of the section, in the order the docs present them. */
export const variables = [
  ...Object.values(mailApiVariables),
  ...MAIL_APIS.flatMap((api) => Object.values(api.variables)),
];

/** The selected provider and its values (complete: its credentials were required), or none. */
export type MailApiConfig =
  | { readonly provider: undefined }
  | { readonly provider: string; readonly values: Readonly<Record<string, unknown>> };

export const read = (r: Reader) => ({
  provider: r.get(mailApiVariables.provider),
  apis: MAIL_APIS.map((api) => r.getAll(api.variables)),
});

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): { mailApi: MailApiConfig } {
  const index = MAIL_APIS.findIndex((api) => api.id === values.provider);
  for (const [i, api] of MAIL_APIS.entries()) {
    for (const v of Object.values(api.variables)) if (v.required !== "no") ctx.r.requireIf(i === index, v);
  }
  const selected = MAIL_APIS[index];
  if (selected === undefined) return { mailApi: { provider: undefined } };
  ctx.r.requireIf(true, smtpVariables.smtpAdminEmail);
  const chosen = Object.fromEntries(
    Object.entries(selected.variables).map(([key, v]) => {
      const value = values.apis[index]?.[key];
      return [key, v.required === "no" ? value : must(ctx, value, v)];
    }),
  );
  return { mailApi: { provider: selected.id, values: chosen } };
}

/** Both SMTP and an API configured: the API is used, which start says. */
export const warnings = (config: Config): string[] =>
  config.mailApi.provider !== undefined && config.smtp.host !== undefined
    ? [
        `${mailApiVariables.provider.name}=${config.mailApi.provider}: mail goes through that API; ${smtpVariables.smtpHost.name} is not used`,
      ]
    : [];

declare module "../../config/shape.js" {
  interface Config {
    readonly mailApi: MailApiConfig;
  }
}
