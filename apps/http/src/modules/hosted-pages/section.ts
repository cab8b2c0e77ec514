/** Hosted pages: authsvc's own sign-in and consent pages, and how they look. */
import * as v from "valibot";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { defineVariables } from "../../config/variable.js";
import { LOCALE, TEXT_KEYS, type Texts } from "./texts.js";

/** A CSS colour as `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`: nothing else can reach the stylesheet. */
const colour: k.Kind<string> = {
  type: "colour (#rrggbb)",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "expected a colour such as #1d4ed8"),
  ),
};

const locale: k.Kind<string> = {
  type: "locale (en, fr, pt-BR)",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.regex(LOCALE, "expected a locale such as en or pt-BR"),
    v.toLowerCase(),
  ),
};

/** The most a configured text may hold. */
const MAX_TEXT = 2000;

type TextOverrides = Readonly<Record<string, Partial<Texts>>>;

function parseTexts(raw: string): TextOverrides | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return "expected a JSON object";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return "expected a JSON object of locales";
  const out: Record<string, Partial<Texts>> = {};
  for (const [tag, texts] of Object.entries(parsed)) {
    if (!LOCALE.test(tag)) return `expected locales as keys, got ${JSON.stringify(tag)}`;
    if (typeof texts !== "object" || texts === null || Array.isArray(texts))
      return `expected an object of texts for ${tag}`;
    const given: Partial<Record<string, string>> = {};
    for (const [key, text] of Object.entries(texts)) {
      if (!(TEXT_KEYS as string[]).includes(key)) return `unknown text ${JSON.stringify(key)} for ${tag}`;
      if (typeof text !== "string" || text.length > MAX_TEXT)
        return `expected ${tag}.${key} as a string of at most ${MAX_TEXT} characters`;
      given[key] = text;
    }
    out[tag.toLowerCase()] = given as Partial<Texts>;
  }
  return out;
}

const texts: k.Kind<TextOverrides> = {
  type: "JSON object",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const parsed = parseTexts(dataset.value === "" ? "{}" : dataset.value);
      if (typeof parsed === "string") {
        addIssue({ message: parsed });
        return NEVER;
      }
      return parsed;
    }),
  ),
};

/** `provider:scope scope,provider:scope`: the scopes the page asks of each provider beyond its own. */
const providerScopes: k.Kind<Readonly<Record<string, string>>> = {
  type: "list of provider:scopes",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const out: Record<string, string> = {};
      for (const entry of dataset.value
        .split(",")
        .map((e) => e.trim())
        .filter((e) => e !== "")) {
        const match = /^([a-z0-9_]+):([\x21-\x7e ]+)$/.exec(entry);
        if (match === null) {
          addIssue({ message: `expected provider:scopes, got ${JSON.stringify(entry)}` });
          return NEVER;
        }
        out[match[1] as string] = (match[2] as string).trim();
      }
      return out;
    }),
  ),
};

const variable = defineVariables("Hosted pages");
export const variables = {
  productName: variable({
    key: "HOSTED_PAGES_PRODUCT_NAME",
    kind: k.text,
    default: "",
    description:
      "The product's name on the hosted sign-in and consent pages (the sign-in heading and the pages' titles). Empty: the pages say \"Sign in\" alone. See docs/oauth-hosted-pages.md.",
  }),
  logoUrl: variable({
    key: "HOSTED_PAGES_LOGO_URL",
    kind: k.url,
    description:
      "An image shown above the hosted pages' headings (an absolute http(s) URL; the pages' `img-src` allows it). Unset: no logo.",
  }),
  primaryColour: variable({
    key: "HOSTED_PAGES_COLOR_PRIMARY",
    kind: colour,
    default: "#1d4ed8",
    description:
      "The hosted pages' buttons, links and focus outline, as `#rgb` or `#rrggbb` (with an optional alpha). Button text is white: choose a colour dark enough to read it on.",
  }),
  backgroundColour: variable({
    key: "HOSTED_PAGES_COLOR_BACKGROUND",
    kind: colour,
    default: "#ffffff",
    description: "The hosted pages' background colour.",
  }),
  textColour: variable({
    key: "HOSTED_PAGES_COLOR_TEXT",
    kind: colour,
    default: "#1a1a1a",
    description: "The hosted pages' text colour.",
  }),
  defaultLocale: variable({
    key: "HOSTED_PAGES_DEFAULT_LOCALE",
    kind: locale,
    default: "en",
    description:
      "The hosted pages' language when neither the authorization request's `ui_locales` nor the browser's `Accept-Language` names one they have (`en` and `fr` built in, others added by `HOSTED_PAGES_TEXTS`).",
  }),
  texts: variable({
    key: "HOSTED_PAGES_TEXTS",
    kind: texts,
    default: "",
    description:
      'The hosted pages\' texts replaced or added, by locale, as JSON: `{"en":{"sign_in_heading":"Welcome to {product}","legal":"By signing in you accept the terms at example.com/terms."},"de":{"sign_in_title":"Anmelden"}}`. A new locale\'s missing texts are English. The keys are listed in docs/oauth-hosted-pages.md; `legal` (empty by default) is shown under every form. Texts are plain text: any markup is shown as written.',
  }),
  providerScopes: variable({
    key: "HOSTED_PAGES_PROVIDER_SCOPES",
    kind: providerScopes,
    default: "",
    description:
      "Scopes the hosted sign-in page asks of an external provider beyond the provider's own, as `provider:scope scope`, comma-separated (`keycloak:openid,azure:openid offline_access`), as a client passes `scopes` to `GET /authorize`. An OpenID Connect provider that answers its user info only to `openid` (Keycloak) needs it here.",
  }),
  captchaSiteKey: variable({
    key: "HOSTED_PAGES_CAPTCHA_SITE_KEY",
    kind: k.text,
    default: "",
    description:
      "The captcha provider's site key for the widget the hosted sign-in page shows when `SECURITY_CAPTCHA_ENABLED` is on (the provider's script is loaded from its origin, which the page's CSP allows). Empty with a captcha on: the page has no widget, and a sign-in needs a token in the form by other means.",
  }),
};

export interface HostedPagesConfig {
  readonly productName: string;
  readonly logoUrl: string | null;
  readonly colours: { readonly primary: string; readonly background: string; readonly text: string };
  readonly defaultLocale: string;
  readonly texts: TextOverrides;
  readonly captchaSiteKey: string;
  /** The scopes the sign-in page asks of each provider beyond its own, by provider. */
  readonly providerScopes: Readonly<Record<string, string>>;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>): { hostedPages: HostedPagesConfig } {
  return {
    hostedPages: {
      productName: s.productName,
      logoUrl: s.logoUrl ?? null,
      colours: { primary: s.primaryColour, background: s.backgroundColour, text: s.textColour },
      defaultLocale: s.defaultLocale,
      texts: s.texts,
      captchaSiteKey: s.captchaSiteKey,
      providerScopes: s.providerScopes,
    },
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly hostedPages: HostedPagesConfig;
  }
}
