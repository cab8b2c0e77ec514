/**
 * The hosted pages' frame: the HTML around every page, its stylesheet (made from the configured
 * colours, served as a file: the pages have no inline style) and the headers that keep them out of
 * frames and away from any script but authsvc's own files and the captcha provider's widget.
 */
import { ENGLISH, type Texts } from "./texts.js";

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** The captcha providers' widgets: the script, and the origins it loads from and talks to. */
export const CAPTCHA_WIDGETS = {
  hcaptcha: {
    script: "https://js.hcaptcha.com/1/api.js",
    origins: "https://hcaptcha.com https://*.hcaptcha.com",
    className: "h-captcha",
  },
  turnstile: {
    script: "https://challenges.cloudflare.com/turnstile/v0/api.js",
    origins: "https://challenges.cloudflare.com",
    className: "cf-turnstile",
  },
} as const;

export interface Theme {
  readonly productName: string;
  readonly logoUrl: string | null;
  /** Each a validated `#hex` colour (section.ts). */
  readonly colours: { readonly primary: string; readonly background: string; readonly text: string };
}

/** How a page looks and speaks, and where its files are. */
export interface Look {
  readonly theme: Theme;
  readonly texts: Texts;
  readonly locale: string;
  /** The pages' path as the browser reached them (`/oauth/consent`, `/auth/v1/oauth/consent`). */
  readonly root: string;
  /** The captcha widget to show in sign-in forms, when a captcha is on and a site key is set. */
  readonly captcha?:
    | { readonly provider: keyof typeof CAPTCHA_WIDGETS; readonly siteKey: string }
    | undefined;
}

export const DEFAULT_THEME: Theme = {
  productName: "",
  logoUrl: null,
  colours: { primary: "#1d4ed8", background: "#ffffff", text: "#1a1a1a" },
};

export const DEFAULT_LOOK: Look = {
  theme: DEFAULT_THEME,
  texts: ENGLISH,
  locale: "en",
  root: "/oauth/consent",
};

const HEX = /^#[0-9a-fA-F]{3,8}$/;
const safeColour = (colour: string, fallback: string) => (HEX.test(colour) ? colour : fallback);

/** The pages' stylesheet (`<root>/pages.css`): the colours are checked again, whatever built the theme. */
export function stylesheet(theme: Theme): string {
  const { primary, background, text } = theme.colours;
  return `:root{--primary:${safeColour(primary, "#1d4ed8")};--background:${safeColour(background, "#ffffff")};--text:${safeColour(text, "#1a1a1a")}}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:var(--text);background:var(--background);line-height:1.5}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
.logo{display:block;max-height:3.5rem;max-width:12rem;margin:0 0 1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;padding:.6rem;font-size:1rem;border:1px solid var(--text);border-radius:.375rem;color:var(--text);background:var(--background)}
button{display:inline-block;padding:.6rem 1.2rem;margin:1rem .5rem 0 0;font-size:1rem;border-radius:.375rem;border:2px solid var(--primary);background:var(--primary);color:#fff;cursor:pointer}
button.secondary{background:var(--background);color:var(--primary)}
form.block button{width:100%;margin-right:0}
a{color:var(--primary)}
:focus-visible,button:focus,input:focus{outline:3px solid var(--primary);outline-offset:2px}
.error{color:#b91c1c;font-weight:600}
.divider{text-align:center;margin:1.25rem 0 0}
.legal{font-size:.875rem;margin-top:2rem}
.uri,#redirect-host{font-family:ui-monospace,monospace;word-break:break-all}
ul{padding-left:1.25rem}
[hidden]{display:none}
`;
}

/**
 * The Content-Security-Policy of every page: script and style only from authsvc's own files (and the
 * captcha widget's origin when one is shown), no frame may hold the page, images from anywhere secure
 * (the logo, the clients' logos). `form-action` is left open: the decision's answer redirects to the
 * client, which a `form-action 'self'` would block.
 */
export function contentSecurityPolicy(look: Pick<Look, "captcha" | "theme">): string {
  const widget = look.captcha ? ` ${CAPTCHA_WIDGETS[look.captcha.provider].origins}` : "";
  const logo = look.theme.logoUrl ? ` ${new URL(look.theme.logoUrl).origin}` : "";
  return [
    "default-src 'none'",
    `script-src 'self'${widget}`,
    `style-src 'self'${widget}`,
    `img-src 'self' https: data:${logo}`,
    `connect-src 'self'${widget}`,
    ...(widget ? [`frame-src${widget}`] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The page's script files (authsvc's own, under the root), and the captcha widget's when shown. */
function scripts(look: Look, own: readonly string[]): string {
  const tags = own.map((file) => `<script src="${escapeHtml(`${look.root}/${file}`)}" defer></script>`);
  if (look.captcha)
    tags.push(`<script src="${CAPTCHA_WIDGETS[look.captcha.provider].script}" async defer></script>`);
  return tags.join("\n");
}

/** A whole page: `body` is HTML already escaped. */
export function page(
  title: string,
  body: string,
  look: Look = DEFAULT_LOOK,
  options: { readonly scripts?: readonly string[] } = {},
): string {
  const { theme, texts } = look;
  const fullTitle = theme.productName ? `${title} · ${theme.productName}` : title;
  const logo = theme.logoUrl
    ? `<img class="logo" src="${escapeHtml(theme.logoUrl)}" alt="${escapeHtml(theme.productName)}">\n`
    : "";
  const legal = texts.legal ? `\n<footer class="legal"><p>${escapeHtml(texts.legal)}</p></footer>` : "";
  const head = scripts(look, options.scripts ?? []);
  return `<!doctype html>
<html lang="${escapeHtml(look.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(fullTitle)}</title>
<link rel="stylesheet" href="${escapeHtml(`${look.root}/pages.css`)}">${head ? `\n${head}` : ""}
</head>
<body>
<main>
${logo}${body}
</main>${legal}
</body>
</html>`;
}

/** Hidden fields carrying a form's state. */
export const hidden = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");

/** The captcha widget, inside a sign-in form, when one is shown. */
export const captchaWidget = (look: Look) =>
  look.captcha
    ? `\n<div class="${CAPTCHA_WIDGETS[look.captcha.provider].className}" data-sitekey="${escapeHtml(look.captcha.siteKey)}"></div>`
    : "";
