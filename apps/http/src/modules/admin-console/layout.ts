/**
 * The console's frame: the HTML around every page, its stylesheet (a file: the pages have no inline
 * style or script) and the headers every page carries: nothing cached, no frame may hold it, no
 * script or style but the console's own file, forms posted only to the console itself.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { CAPTCHA_WIDGETS, escapeHtml } from "../hosted-pages/layout.js";
import { TEXTS, text } from "./texts.js";

export { escapeHtml };

/** The captcha widget on the sign-in form, when a captcha is on and a site key set (`HOSTED_PAGES_CAPTCHA_SITE_KEY`). */
export interface Widget {
  readonly provider: keyof typeof CAPTCHA_WIDGETS;
  readonly siteKey: string;
}

/** No script but the captcha provider's widget on the sign-in page when one is shown; no frame may hold a page. */
export function contentSecurityPolicy(widget?: Widget): string {
  const origins = widget ? ` ${CAPTCHA_WIDGETS[widget.provider].origins}` : "";
  return [
    "default-src 'none'",
    widget ? `script-src${origins}` : "script-src 'none'",
    `style-src 'self'${origins}`,
    "img-src 'self'",
    ...(widget ? [`connect-src${origins}`, `frame-src${origins}`] : []),
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The widget's element, inside the sign-in form. */
export const widgetField = (widget?: Widget) =>
  widget
    ? `\n<div class="${CAPTCHA_WIDGETS[widget.provider].className}" data-sitekey="${escapeHtml(widget.siteKey)}"></div>`
    : "";

/** The console's stylesheet (`<root>/console.css`): readable from phone width up, focus always visible. */
export const STYLESHEET = `*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.5}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;background:#1e293b;color:#fff}
header a,header .who{color:#fff}
header form{margin:0}
main{max-width:64rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h1,dd,td,.who{overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input,select{width:100%;max-width:28rem;padding:.55rem;font-size:1rem;border:1px solid #1a1a1a;border-radius:.375rem;background:#fff;color:#1a1a1a}
button{display:inline-block;padding:.55rem 1.1rem;margin:.5rem .5rem 0 0;font-size:1rem;border-radius:.375rem;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.danger{border-color:#b91c1c;background:#b91c1c}
button.secondary{background:#fff;color:#1d4ed8}
a{color:#1d4ed8}
:focus-visible,button:focus,input:focus,select:focus,a:focus{outline:3px solid #f59e0b;outline-offset:2px}
.error{color:#b91c1c;font-weight:600}
.narrow{max-width:28rem}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #cbd5e1;vertical-align:top}
td form{margin:0}
td button{margin:0}
.sr{position:absolute;left:-10000px}
.mono{font-family:ui-monospace,monospace;word-break:break-all}
.banned{color:#b91c1c;font-weight:600}
nav.pages{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:1rem 0}
.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.search div{flex:1 1 16rem}
.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.inline div{flex:0 1 20rem}
@media (max-width:40rem){
  table.stack thead{position:absolute;left:-10000px}
  table.stack tr{display:block;border-bottom:2px solid #cbd5e1;padding:.25rem 0}
  table.stack td{display:block;border:0;padding:.15rem 0}
  table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
}
`;

/** Who is signed in, shown in the header with the sign-out form. */
export interface Header {
  readonly root: string;
  readonly email: string;
  readonly csrf: string;
}

/** A whole page: `body` is HTML already escaped. */
export function page(root: string, title: string, body: string, header?: Header, widget?: Widget): string {
  const top = header
    ? `<header>
<a href="${escapeHtml(`${root}/users`)}">${escapeHtml(TEXTS.product)}</a>
<span class="who">${escapeHtml(text("signed_in_as", { email: header.email }))}</span>
<form method="post" action="${escapeHtml(`${root}/sign-out`)}">
<input type="hidden" name="csrf" value="${escapeHtml(header.csrf)}">
<button type="submit" class="secondary">${escapeHtml(TEXTS.sign_out)}</button>
</form>
</header>`
    : `<header><span>${escapeHtml(TEXTS.product)}</span></header>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(`${title} · ${TEXTS.product}`)}</title>
<link rel="stylesheet" href="${escapeHtml(`${root}/console.css`)}">${
    widget ? `\n<script src="${CAPTCHA_WIDGETS[widget.provider].script}" async defer></script>` : ""
  }
</head>
<body>
${top}
<main>
${body}
</main>
</body>
</html>`;
}

/** A page's answer with the headers every console page has. */
export function html(c: Context<AppEnv>, body: string, status: 200 | 400 | 403 | 404 = 200, widget?: Widget) {
  c.header("Cache-Control", "no-store");
  c.header("X-Frame-Options", "DENY");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Content-Security-Policy", contentSecurityPolicy(widget));
  return c.html(body, status);
}

/** A page that only names a problem, with a way back. */
export const problemPage = (root: string, title: string, message: string, header?: Header) =>
  page(
    root,
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(`${root}/users`)}">${escapeHtml(TEXTS.back_to_users)}</a></p>`,
    header,
  );
