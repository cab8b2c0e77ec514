/** The console's pages as HTML: every value escaped, every form carrying its CSRF value. */
import type { UserWithIdentities } from "@authsvc/core/accounts";
import type { SessionView } from "@authsvc/core/sessions";
import { escapeHtml as e, type Header, page, type Widget, widgetField } from "./layout.js";
import { TEXTS, type TextKey, text } from "./texts.js";

/** The ban durations offered (Go durations, as `PUT /admin/users/{id}` takes them). */
export const BAN_DURATIONS = ["1h", "24h", "168h", "720h", "876000h"] as const;

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${e(csrf)}">`;
const problem = (message?: string) =>
  message ? `<p class="error" role="alert" id="problem">${e(message)}</p>\n` : "";
const when = (date: Date | null) => (date === null ? TEXTS.never : date.toISOString().replace(".000Z", "Z"));

export function signInPage(root: string, csrf: string, email: string, message?: string, widget?: Widget) {
  return page(
    root,
    TEXTS.sign_in_title,
    `<div class="narrow">
<h1>${e(TEXTS.sign_in_heading)}</h1>
${problem(message)}<form method="post" action="${e(`${root}/sign-in`)}">
${csrfField(csrf)}
<label for="email">${e(TEXTS.email)}</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${e(email)}">
<label for="password">${e(TEXTS.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>${widgetField(widget)}
<button type="submit">${e(TEXTS.sign_in_button)}</button>
</form>
</div>`,
    undefined,
    widget,
  );
}

export function mfaPage(
  root: string,
  fields: { csrf: string; factor_id: string; challenge_id: string },
  message?: string,
) {
  return page(
    root,
    TEXTS.mfa_title,
    `<div class="narrow">
<h1>${e(TEXTS.mfa_title)}</h1>
<p>${e(TEXTS.mfa_intro)}</p>
${problem(message)}<form method="post" action="${e(`${root}/mfa`)}">
${csrfField(fields.csrf)}
<input type="hidden" name="factor_id" value="${e(fields.factor_id)}">
<input type="hidden" name="challenge_id" value="${e(fields.challenge_id)}">
<label for="code">${e(TEXTS.mfa_code)}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<button type="submit">${e(TEXTS.mfa_button)}</button>
</form>
</div>`,
  );
}

const status = (user: UserWithIdentities, now: Date) =>
  user.bannedUntil !== null && user.bannedUntil > now
    ? `<span class="banned">${e(text("banned_until", { until: when(user.bannedUntil) }))}</span>`
    : e(TEXTS.active);

const cell = (label: TextKey, content: string) => `<td data-label="${e(TEXTS[label])}">${content}</td>`;

export interface UserListView {
  readonly users: readonly UserWithIdentities[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly query: string;
  readonly now: Date;
}

export function usersPage(root: string, header: Header, list: UserListView) {
  const pages = Math.max(1, Math.ceil(list.total / list.perPage));
  const link = (p: number) => {
    const params = new URLSearchParams({ ...(list.query ? { q: list.query } : {}), page: String(p) });
    return `${root}/users?${params}`;
  };
  const rows = list.users
    .map(
      (u) => `<tr>
${cell("col_email", `<a href="${e(`${root}/users/${u.id}`)}">${e(u.email || u.phone || u.id)}</a>`)}
${cell("col_phone", e(u.phone ?? ""))}
${cell("col_created", e(when(u.createdAt)))}
${cell("col_last_sign_in", e(when(u.lastSignInAt)))}
${cell("col_status", status(u, list.now))}
</tr>`,
    )
    .join("\n");
  const table =
    list.users.length === 0
      ? `<p>${e(TEXTS.no_users)}</p>`
      : `<div class="table-wrap"><table class="stack">
<caption>${e(text("users_count", { total: list.total }))}</caption>
<thead><tr><th scope="col">${e(TEXTS.col_email)}</th><th scope="col">${e(TEXTS.col_phone)}</th><th scope="col">${e(TEXTS.col_created)}</th><th scope="col">${e(TEXTS.col_last_sign_in)}</th><th scope="col">${e(TEXTS.col_status)}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`;
  const nav = `<nav class="pages" aria-label="Pages">
${list.page > 1 ? `<a href="${e(link(list.page - 1))}" rel="prev">${e(TEXTS.previous)}</a>` : ""}
<span>${e(text("page_of", { page: list.page, pages }))}</span>
${list.page < pages ? `<a href="${e(link(list.page + 1))}" rel="next">${e(TEXTS.next)}</a>` : ""}
</nav>`;
  return page(
    root,
    TEXTS.users_title,
    `<h1>${e(TEXTS.users_title)}</h1>
<form method="get" action="${e(`${root}/users`)}" class="search" role="search">
<div><label for="q">${e(TEXTS.search_label)}</label>
<input id="q" name="q" type="search" value="${e(list.query)}"></div>
<button type="submit">${e(TEXTS.search_button)}</button>
</form>
${nav}
${table}`,
    header,
  );
}

export interface UserView {
  readonly user: UserWithIdentities;
  readonly sessions: readonly SessionView[];
  readonly now: Date;
  readonly problem?: string | undefined;
}

export function userPage(root: string, header: Header, view: UserView) {
  const { user, now } = view;
  const base = `${root}/users/${user.id}`;
  const name = user.email || user.phone || user.id;
  const identities =
    user.identities.length === 0
      ? `<p>${e(TEXTS.no_identities)}</p>`
      : `<ul>${user.identities.map((i) => `<li>${e(i.provider)} <span class="mono">${e(i.providerId)}</span></li>`).join("")}</ul>`;
  const sessionRows = view.sessions
    .map(
      ({ session }) => `<tr>
${cell("session_id", `<span class="mono">${e(session.id)}</span>`)}
${cell("session_aal", e(session.aal))}
${cell("session_created", e(when(session.createdAt)))}
${cell("session_refreshed", e(when(session.refreshedAt)))}
<td><form method="post" action="${e(`${base}/sessions/revoke`)}">
${csrfField(header.csrf)}
<input type="hidden" name="session_id" value="${e(session.id)}">
<button type="submit" class="danger" aria-label="${e(text("revoke_session", { id: session.id }))}">${e(TEXTS.revoke)}</button>
</form></td>
</tr>`,
    )
    .join("\n");
  const sessions =
    view.sessions.length === 0
      ? `<p>${e(TEXTS.no_sessions)}</p>`
      : `<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">${e(TEXTS.session_id)}</th><th scope="col">${e(TEXTS.session_aal)}</th><th scope="col">${e(TEXTS.session_created)}</th><th scope="col">${e(TEXTS.session_refreshed)}</th><th scope="col"><span class="sr">${e(TEXTS.revoke)}</span></th></tr></thead>
<tbody>
${sessionRows}
</tbody>
</table></div>
<form method="post" action="${e(`${base}/sessions/revoke`)}">
${csrfField(header.csrf)}
<input type="hidden" name="session_id" value="all">
<button type="submit" class="danger">${e(TEXTS.revoke_all)}</button>
</form>`;
  const banned = user.bannedUntil !== null && user.bannedUntil > now;
  const options = BAN_DURATIONS.map(
    (d) => `<option value="${d}">${e(TEXTS[`duration_${d}` as TextKey])}</option>`,
  ).join("");
  const ban = `<p id="ban-state">${banned ? status(user, now) : e(TEXTS.not_banned)}</p>
<form method="post" action="${e(`${base}/ban`)}" class="inline">
${csrfField(header.csrf)}
<div><label for="duration">${e(TEXTS.ban_duration)}</label>
<select id="duration" name="duration">${options}</select></div>
<button type="submit" class="danger">${e(TEXTS.ban_button)}</button>
</form>${
    banned
      ? `\n<form method="post" action="${e(`${base}/ban`)}">
${csrfField(header.csrf)}
<input type="hidden" name="duration" value="none">
<button type="submit">${e(TEXTS.unban_button)}</button>
</form>`
      : ""
  }`;
  return page(
    root,
    text("user_title", { name }),
    `<p><a href="${e(`${root}/users`)}">${e(TEXTS.back_to_users)}</a></p>
<h1>${e(name)}</h1>
${problem(view.problem)}<dl>
<dt>${e(TEXTS.user_id)}</dt><dd class="mono">${e(user.id)}</dd>
<dt>${e(TEXTS.col_phone)}</dt><dd>${e(user.phone ?? "")}</dd>
<dt>${e(TEXTS.role)}</dt><dd>${e(user.role)}</dd>
<dt>${e(TEXTS.email_confirmed)}</dt><dd>${e(user.emailConfirmedAt ? TEXTS.yes : TEXTS.no)}</dd>
<dt>${e(TEXTS.col_created)}</dt><dd>${e(when(user.createdAt))}</dd>
<dt>${e(TEXTS.col_last_sign_in)}</dt><dd>${e(when(user.lastSignInAt))}</dd>
</dl>
<h2>${e(TEXTS.ban_heading)}</h2>
${ban}
<h2>${e(TEXTS.identities)}</h2>
${identities}
<h2>${e(TEXTS.sessions)}</h2>
${sessions}`,
    header,
  );
}
