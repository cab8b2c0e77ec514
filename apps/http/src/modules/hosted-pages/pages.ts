/** The hosted pages' HTML: server-rendered, every value escaped, no inline script or style. */
import { captchaWidget, DEFAULT_LOOK, escapeHtml, hidden, type Look, page } from "./layout.js";
import { fill, type TextKey } from "./texts.js";

const text = (look: Look, key: TextKey, values: Readonly<Record<string, string>> = {}) =>
  fill(look.texts[key], values, escapeHtml);

const problemLine = (problem: string | undefined) =>
  problem ? `<p class="error" role="alert" id="problem">${escapeHtml(problem)}</p>\n` : "";

/** What the sign-in page offers besides the password. */
export interface SignInOptions {
  /** A code or link by email (`/otp`): its form posts here. */
  readonly otpAction?: string | undefined;
  /** A passkey: the button the page's script (`passkey.js`) drives, and where it posts its answer. */
  readonly passkeyAction?: string | undefined;
  /** Where the API is, for the script's `/passkeys/authentication/options` (the base path). */
  readonly apiBase?: string | undefined;
  /** External providers: each a button posting to its start. */
  readonly providers?: readonly { readonly id: string; readonly name: string }[];
  readonly providerAction?: string | undefined;
  /** SSO by the email's domain: its form posts here. */
  readonly ssoAction?: string | undefined;
}

/** Step 1: sign in, for the request `authorizationId`. */
export function signInPage(
  input: {
    readonly action: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly problem?: string | undefined;
  } & SignInOptions,
  look: Look = DEFAULT_LOOK,
): string {
  const heading = look.theme.productName
    ? text(look, "sign_in_heading", { product: look.theme.productName })
    : text(look, "sign_in_title");
  const others: string[] = [];
  if (input.passkeyAction)
    others.push(`<form method="post" action="${escapeHtml(input.passkeyAction)}" id="passkey-form" class="block" data-api="${escapeHtml(input.apiBase ?? "")}" hidden>
${hidden(input.fields)}
<input type="hidden" name="challenge_id" value="">
<input type="hidden" name="credential" value="">
<button type="button" id="passkey" class="secondary" data-cancelled="${escapeHtml(look.texts.passkey_failed)}">${text(look, "passkey_button")}</button>
<p class="error" role="alert" id="passkey-problem" hidden></p>
</form>
<p id="passkey-unavailable" hidden>${text(look, "passkey_unavailable")}</p>`);
  if (input.otpAction)
    others.push(`<form method="post" action="${escapeHtml(input.otpAction)}" class="block">
${hidden(input.fields)}
<label for="otp-email">${text(look, "email")}</label>
<input id="otp-email" name="email" type="email" autocomplete="email" required>${captchaWidget(look)}
<button type="submit" class="secondary">${text(look, "otp_send_button")}</button>
</form>`);
  if (input.providerAction && input.providers && input.providers.length > 0)
    others.push(`<form method="post" action="${escapeHtml(input.providerAction)}" class="block">
${hidden(input.fields)}
${input.providers
  .map(
    (p) =>
      `<button type="submit" name="provider" value="${escapeHtml(p.id)}" class="secondary">${text(look, "provider_button", { provider: p.name })}</button>`,
  )
  .join("\n")}
</form>`);
  if (input.ssoAction)
    others.push(`<form method="post" action="${escapeHtml(input.ssoAction)}" class="block">
${hidden(input.fields)}
<label for="sso-domain">${text(look, "sso_domain")}</label>
<input id="sso-domain" name="domain" type="text" autocomplete="off" required>${captchaWidget(look)}
<button type="submit" class="secondary">${text(look, "sso_button")}</button>
</form>`);
  const alternatives = others.map((o) => `<p class="divider">${text(look, "or")}</p>\n${o}`).join("\n");
  return page(
    look.texts.sign_in_title,
    `<h1>${heading}</h1>
<p>${text(look, "sign_in_intro")}</p>
${problemLine(input.problem)}<form method="post" action="${escapeHtml(input.action)}" class="block">
${hidden(input.fields)}
<label for="email">${text(look, "email")}</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">${text(look, "password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>${captchaWidget(look)}
<button type="submit">${text(look, "sign_in_button")}</button>
</form>${alternatives ? `\n${alternatives}` : ""}`,
    look,
    { scripts: input.passkeyAction ? ["passkey.js"] : [] },
  );
}

/** The code sent by email: enter it (the email's link lands on the page by itself). */
export function otpCodePage(
  input: {
    readonly action: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly email: string;
    readonly problem?: string | undefined;
  },
  look: Look = DEFAULT_LOOK,
): string {
  return page(
    look.texts.otp_heading,
    `<h1>${text(look, "otp_heading")}</h1>
<p>${text(look, "otp_intro", { email: input.email })}</p>
${problemLine(input.problem)}<form method="post" action="${escapeHtml(input.action)}" class="block">
${hidden(input.fields)}
<label for="otp-code">${text(look, "otp_code")}</label>
<input id="otp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<button type="submit">${text(look, "otp_button")}</button>
</form>`,
    look,
  );
}

/** The second factor: a code from the authenticator app (or texted, for a phone factor). */
export function mfaPage(
  input: {
    readonly action: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly problem?: string | undefined;
  },
  look: Look = DEFAULT_LOOK,
): string {
  return page(
    look.texts.mfa_title,
    `<h1>${text(look, "mfa_heading")}</h1>
<p>${text(look, "mfa_intro")}</p>
${problemLine(input.problem)}<form method="post" action="${escapeHtml(input.action)}" class="block">
${hidden(input.fields)}
<label for="mfa-code">${text(look, "mfa_code")}</label>
<input id="mfa-code" name="code" type="text" inputmode="numeric" pattern="[0-9]*" autocomplete="one-time-code" required autofocus>
<button type="submit">${text(look, "mfa_button")}</button>
</form>`,
    look,
  );
}

/** The host of a redirect URI, or the URI itself when it has none (a custom scheme). */
function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host || `${url.protocol}`;
  } catch {
    return uri;
  }
}

/**
 * Step 2: the client's name and logo, its site, where the browser goes next, the scopes it asks for
 * (each with what it lets the client do) and the resource (RFC 8707) its access is for; allow or deny.
 */
export function consentPage(
  input: {
    readonly action: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly clientName: string;
    readonly clientUri: string | null;
    readonly logoUri?: string | null | undefined;
    readonly redirectUri?: string | undefined;
    readonly userEmail: string;
    readonly scopes: readonly string[];
    /** The custom scopes' descriptions (`/admin/oauth/scopes`), shown where no text of the look names the scope. */
    readonly descriptions?: Readonly<Record<string, string>>;
    readonly resource: string | null;
    /** A client metadata document's client: the host of its URL, which alone vouches for its name. */
    readonly documentHost?: string | null | undefined;
  },
  look: Look = DEFAULT_LOOK,
): string {
  const items = input.scopes
    .map((s) => {
      const key = `scope_${s}` as TextKey;
      const words = key in look.texts ? look.texts[key] : (input.descriptions?.[s] ?? s);
      return `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(words)}</li>`;
    })
    .join("\n");
  const logo = input.logoUri
    ? `<img class="logo" id="client-logo" src="${escapeHtml(input.logoUri)}" alt="">\n`
    : "";
  const heading = fill(look.texts.consent_heading, { client: input.clientName }, escapeHtml, (_, v) => {
    // Nobody registered such a client: its host, not its self-asserted name or site, is what is known.
    const site = input.documentHost
      ? ` (<strong id="client-host">${escapeHtml(input.documentHost)}</strong>)`
      : input.clientUri
        ? ` (<a class="uri" href="${escapeHtml(input.clientUri)}" rel="noopener noreferrer">${escapeHtml(input.clientUri)}</a>)`
        : "";
    return `<span id="client-name">${v}</span>${site}`;
  });
  const resource = input.resource
    ? `\n<p>${fill(look.texts.consent_resource, { resource: input.resource }, escapeHtml, (_, v) => `<span id="resource">${v}</span>`)}</p>`
    : "";
  const selfAsserted = input.documentHost
    ? `\n<p id="client-self-asserted">${fill(look.texts.consent_self_asserted, { host: input.documentHost }, escapeHtml, (_, v) => `<strong>${v}</strong>`)}</p>`
    : "";
  const redirect = input.redirectUri
    ? `\n<p>${fill(look.texts.consent_redirect, { host: hostOf(input.redirectUri) }, escapeHtml, (_, v) => `<span id="redirect-host">${v}</span>`)}</p>`
    : "";
  return page(
    fill(look.texts.consent_title, { client: input.clientName }, (s) => s),
    `${logo}<h1>${heading}</h1>${selfAsserted}
<p>${text(look, "consent_signed_in_as", { email: input.userEmail })}</p>
<ul id="scopes">
${items}
</ul>${resource}${redirect}
<form method="post" action="${escapeHtml(input.action)}">
${hidden(input.fields)}
<button type="submit" name="action" value="approve">${text(look, "allow")}</button>
<button type="submit" name="action" value="deny" class="secondary">${text(look, "deny")}</button>
</form>`,
    look,
  );
}

/** A request that cannot go on: why, in words. */
export function problemPage(message: string, look: Look = DEFAULT_LOOK): string {
  return page(
    look.texts.problem_title,
    `<h1>${text(look, "problem_title")}</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`,
    look,
  );
}
