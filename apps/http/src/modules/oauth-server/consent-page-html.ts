/** The built-in sign-in and consent page's HTML: server-rendered, no script, every value escaped. */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** What each scope lets the client do, in the words the user reads. */
const SCOPE_WORDS: Readonly<Record<string, string>> = {
  openid: "Confirm who you are",
  email: "See your email address",
  profile: "See your name, picture and profile",
  phone: "See your phone number",
  offline_access: "Stay connected while you are away",
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{padding:.6rem 1.2rem;margin:1rem .5rem 0 0;font-size:1rem}
button:focus,input:focus{outline:3px solid #2b6cb0;outline-offset:2px}
.error{color:#9b1c1c}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const hidden = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");

/** Step 1: sign in, for the request `authorizationId`. */
export function signInPage(input: {
  readonly action: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly problem?: string | undefined;
}): string {
  return page(
    "Sign in",
    `<h1>Sign in</h1>
<p>An application asks to use your account. Sign in to continue.</p>
${input.problem ? `<p class="error" role="alert">${escapeHtml(input.problem)}</p>` : ""}
<form method="post" action="${escapeHtml(input.action)}">
${hidden(input.fields)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

/**
 * Step 2: the client's name, the scopes it asks for and the resource (RFC 8707) its access is for,
 * which accepts the client's tokens; approve or deny.
 */
export function consentPage(input: {
  readonly action: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly clientName: string;
  readonly clientUri: string | null;
  readonly userEmail: string;
  readonly scopes: readonly string[];
  readonly resource: string | null;
}): string {
  const items = input.scopes
    .map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(SCOPE_WORDS[s] ?? s)}</li>`)
    .join("\n");
  const site = input.clientUri ? ` (<span class="uri">${escapeHtml(input.clientUri)}</span>)` : "";
  const resource = input.resource
    ? `\n<p>This access is for <span id="resource">${escapeHtml(input.resource)}</span>, which will accept it.</p>`
    : "";
  return page(
    `Allow ${input.clientName}?`,
    `<h1>Allow <span id="client-name">${escapeHtml(input.clientName)}</span>${site}?</h1>
<p>Signed in as ${escapeHtml(input.userEmail)}. The application asks to:</p>
<ul id="scopes">
${items}
</ul>${resource}
<form method="post" action="${escapeHtml(input.action)}">
${hidden(input.fields)}
<button type="submit" name="action" value="approve">Allow</button>
<button type="submit" name="action" value="deny">Deny</button>
</form>`,
  );
}

/** A request that cannot go on: why, in words. */
export function problemPage(message: string): string {
  return page(
    "Cannot continue",
    `<h1>Cannot continue</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`,
  );
}
