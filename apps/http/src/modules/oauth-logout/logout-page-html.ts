/**
 * `/oauth/logout`'s pages, in the hosted pages' frame: their theme (name, logo, colours, from their
 * stylesheet), their texts and language (`HOSTED_PAGES_TEXTS`, `ui_locales`), no script, every value
 * escaped.
 */
import { escapeHtml, hidden, type Look, page } from "../hosted-pages/layout.js";
import { fill } from "../hosted-pages/texts.js";

/** Asks the user to confirm: a form posting back the request's fields with the CSRF value. */
export function confirmPage(
  input: { readonly clientName: string | null; readonly fields: Readonly<Record<string, string>> },
  look: Look,
): string {
  const { texts } = look;
  const heading = input.clientName
    ? fill(
        texts.logout_heading_client,
        { client: input.clientName },
        escapeHtml,
        (_, v) => `<span id="client-name">${v}</span>`,
      )
    : escapeHtml(texts.logout_heading);
  return page(
    texts.logout_title,
    `<h1>${heading}</h1>
<p>${escapeHtml(texts.logout_intro)}</p>
<form method="post" action="logout" class="block">
${hidden(input.fields)}
<input type="hidden" name="confirm" value="yes">
<button type="submit">${escapeHtml(texts.logout_button)}</button>
</form>`,
    look,
  );
}

/** The user is signed out, and no registered URI was asked for. */
export const signedOutPage = (look: Look) =>
  page(
    look.texts.signed_out_title,
    `<h1>${escapeHtml(look.texts.signed_out_heading)}</h1>\n<p>${escapeHtml(look.texts.signed_out_intro)}</p>`,
    look,
  );

/** A refused request: the OAuth error and why (never a redirect). */
export const refusedPage = (error: string, description: string, look: Look) =>
  page(
    look.texts.logout_refused_title,
    `<h1>${escapeHtml(look.texts.logout_refused_title)}</h1>\n<p class="error" role="alert">${escapeHtml(error)}: ${escapeHtml(description)}</p>`,
    look,
  );
