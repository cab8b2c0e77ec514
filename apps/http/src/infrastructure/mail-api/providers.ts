import {
  type MailApiProvider,
  mailgunApi,
  postmarkApi,
  resendApi,
  sendgridApi,
  sesApi,
} from "@authsvc/adapters";
import * as k from "../../config/kinds.js";
import { defineVariables, PREFIX, type Variable } from "../../config/variable.js";

/** A variable the provider cannot work without: required when `MAILER_PROVIDER` selects it. */
type Credential<T> = Variable<T> & { readonly required: `when ${string}` };

/** The values a provider is built from: its credentials always, the rest when set. */
type ProviderValues<V> = {
  readonly [K in keyof V]: V[K] extends Credential<infer T>
    ? T
    : V[K] extends Variable<infer T>
      ? T | undefined
      : never;
};

/**
 * One mail API `MAILER_PROVIDER` can select: its variables (credentials, required when it is
 * selected; options; its base URL) and how its requests are built from their values.
 */
export interface MailApiDefinition {
  /** The value of `MAILER_PROVIDER` that selects it. */
  readonly id: string;
  readonly variables: Readonly<Record<string, Variable<unknown>>>;
  provider(values: never): MailApiProvider;
}

const variable = defineVariables("Mail provider APIs");

const credential = <T>(id: string, key: string, kind: k.Kind<T>, description: string): Credential<T> =>
  variable({ key, kind, required: `when ${PREFIX}MAILER_PROVIDER is ${id}`, description }) as Credential<T>;

const option = <T>(
  key: string,
  kind: k.Kind<T>,
  description: string,
  computedDefault?: string,
): Variable<T> => variable({ key, kind, description, ...(computedDefault ? { computedDefault } : {}) });

const baseUrl = (id: string, api: string, more = ""): Variable<string> =>
  option(
    `MAILER_${id.toUpperCase()}_BASE_URL`,
    k.url,
    `Base URL of the ${id} API${more} (tests point it at a fake).`,
    `\`${api}\``,
  );

function define<V extends Readonly<Record<string, Variable<unknown>>>>(
  id: string,
  variables: V,
  provider: (values: ProviderValues<V>) => MailApiProvider,
): MailApiDefinition {
  return { id, variables, provider: provider as (values: never) => MailApiProvider };
}

const resend = define(
  "resend",
  {
    apiKey: credential(
      "resend",
      "MAILER_RESEND_API_KEY",
      k.secret(),
      "Resend API key (`re_…`, with sending access).",
    ),
    baseUrl: baseUrl("resend", "https://api.resend.com"),
  },
  resendApi,
);

const postmark = define(
  "postmark",
  {
    serverToken: credential(
      "postmark",
      "MAILER_POSTMARK_SERVER_TOKEN",
      k.secret(),
      "Postmark server API token (`X-Postmark-Server-Token`).",
    ),
    messageStream: variable({
      key: "MAILER_POSTMARK_MESSAGE_STREAM",
      kind: k.text,
      default: "outbound",
      description: "Postmark message stream the mail goes through (a transactional stream).",
    }),
    baseUrl: baseUrl("postmark", "https://api.postmarkapp.com"),
  },
  postmarkApi,
);

const ses = define(
  "ses",
  {
    region: credential(
      "ses",
      "MAILER_SES_REGION",
      k.text,
      "AWS region of the SES sending identity (`eu-west-1`).",
    ),
    accessKeyId: credential(
      "ses",
      "MAILER_SES_ACCESS_KEY_ID",
      k.text,
      "AWS access key id allowed `ses:SendEmail`.",
    ),
    secretAccessKey: credential("ses", "MAILER_SES_SECRET_ACCESS_KEY", k.secret(), "Its secret access key."),
    sessionToken: option(
      "MAILER_SES_SESSION_TOKEN",
      k.secret(),
      "Session token of temporary credentials, when the key is one.",
    ),
    configurationSet: option(
      "MAILER_SES_CONFIGURATION_SET",
      k.text,
      "SES configuration set every mail names (event publishing, dedicated IPs).",
    ),
    baseUrl: baseUrl("ses", "https://email.<region>.amazonaws.com"),
  },
  sesApi,
);

const sendgrid = define(
  "sendgrid",
  {
    apiKey: credential(
      "sendgrid",
      "MAILER_SENDGRID_API_KEY",
      k.secret(),
      "SendGrid API key with Mail Send access.",
    ),
    baseUrl: baseUrl(
      "sendgrid",
      "https://api.sendgrid.com",
      "; `https://api.eu.sendgrid.com` for EU data residency",
    ),
  },
  sendgridApi,
);

const mailgun = define(
  "mailgun",
  {
    apiKey: credential(
      "mailgun",
      "MAILER_MAILGUN_API_KEY",
      k.secret(),
      "Mailgun sending or account API key.",
    ),
    domain: credential(
      "mailgun",
      "MAILER_MAILGUN_DOMAIN",
      k.text,
      "Mailgun sending domain (`mg.example.com`).",
    ),
    baseUrl: baseUrl(
      "mailgun",
      "https://api.mailgun.net",
      "; `https://api.eu.mailgun.net` for a domain in the EU region",
    ),
  },
  mailgunApi,
);

/** The providers `MAILER_PROVIDER` may name, in the order the docs list them. */
export const MAIL_APIS: readonly MailApiDefinition[] = [resend, postmark, ses, sendgrid, mailgun];
