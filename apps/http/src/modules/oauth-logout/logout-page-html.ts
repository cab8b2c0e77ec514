/** `/oauth/logout`'s pages: server-rendered, no script, no style, every value escaped. */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** A page (in English: `ui_locales` is accepted, and its text is English whatever it asks). */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

/** Asks the user to confirm: a form posting back the request's fields with the CSRF value. */
export function confirmPage(input: {
  readonly clientName: string | null;
  readonly fields: Readonly<Record<string, string>>;
}): string {
  const hidden = Object.entries(input.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  const who = input.clientName ? ` of ${escapeHtml(input.clientName)}` : "";
  return page(
    "Sign out",
    `<h1>Sign out${who}?</h1>
<p>You are about to sign out${who}.</p>
<form method="post" action="logout">
${hidden}
<input type="hidden" name="confirm" value="yes">
<button type="submit">Sign out</button>
</form>`,
  );
}

/** The user is signed out, and no registered URI was asked for. */
export const signedOutPage = () =>
  page("Signed out", "<h1>You are signed out</h1>\n<p>You may close this window.</p>");

/** A refused request: the OAuth error and why (never a redirect). */
export const refusedPage = (error: string, description: string) =>
  page(
    "Sign-out refused",
    `<h1>Sign-out refused</h1>\n<p role="alert">${escapeHtml(error)}: ${escapeHtml(description)}</p>`,
  );
