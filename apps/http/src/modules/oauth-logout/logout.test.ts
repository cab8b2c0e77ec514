import { describe, expect, it } from "vitest";
import { bearer, send } from "../../testing/requests.js";
import { freshConfig, testApp } from "../../testing/test-app.js";

const AFTER = "https://app.example/bye";

async function withClient(overrides: Parameters<typeof testApp>[0] = {}) {
  const t = testApp(overrides);
  const registered = await send(t.app, "POST", "/oauth/clients/register", {
    redirect_uris: ["https://app.example/cb"],
    token_endpoint_auth_method: "none",
    client_name: "App <b>",
    post_logout_redirect_uris: [AFTER],
    backchannel_logout_uri: "https://app.example/backchannel",
    backchannel_logout_session_required: true,
  });
  expect(registered.status).toBe(201);
  const body = (await registered.json()) as Record<string, unknown>;
  return { ...t, clientId: body.client_id as string, body };
}

const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("/oauth/logout", () => {
  it("registers and answers the client's logout metadata, and refuses bad values", async () => {
    const { app, body } = await withClient();
    expect(body).toMatchObject({
      post_logout_redirect_uris: [AFTER],
      backchannel_logout_uri: "https://app.example/backchannel",
      backchannel_logout_session_required: true,
    });
    for (const bad of [
      { post_logout_redirect_uris: ["javascript:alert(1)"] },
      { post_logout_redirect_uris: ["http://evil.example/"] },
      { backchannel_logout_uri: "https://rp.example/b#frag" },
      { backchannel_logout_uri: "http://rp.example/b" },
      { backchannel_logout_uri: "ftp://rp.example/b" },
    ]) {
      const refused = await send(app, "POST", "/oauth/clients/register", {
        redirect_uris: ["https://app.example/cb"],
        ...bad,
      });
      expect(refused.status).toBe(400);
    }
    const metadata = (await (await app.request("/.well-known/openid-configuration")).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      end_session_endpoint: "http://localhost:9999/oauth/logout",
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
  });

  it("asks for confirmation without a hint (no script, no framing), then redirects only with the form's cookie", async () => {
    const { app, clientId } = await withClient();
    const fields = { client_id: clientId, post_logout_redirect_uri: AFTER, state: "xyz" };
    const page = await app.request(`/oauth/logout?${query(fields)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("location")).toBeNull();
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).not.toContain("<script");
    expect(html).toContain("App &lt;b&gt;");
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(page.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect(page.headers.get("set-cookie")).toMatch(/SameSite=Strict/i);
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const post = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      app.request("/oauth/logout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: query(body),
      });
    // Another site's form: no cookie, or a forged value.
    expect((await post({ ...fields, csrf, confirm: "yes" })).status).toBe(400);
    expect((await post({ ...fields, csrf: "x".repeat(43), confirm: "yes" }, { cookie })).status).toBe(400);
    const done = await post({ ...fields, csrf, confirm: "yes" }, { cookie });
    // A posted form is sent on with 303 (never re-posted), telling the next page nothing of this one.
    expect(done.status).toBe(303);
    expect(done.headers.get("referrer-policy")).toBe("no-referrer");
    expect(done.headers.get("location")).toBe(`${AFTER}?state=xyz`);
  });

  it("wears the hosted pages' theme and speaks their texts, in the request's ui_locales", async () => {
    const config = freshConfig();
    const hostedPages = {
      ...config.hostedPages,
      productName: "Acme <Cloud>",
      logoUrl: "https://cdn.example/logo.svg",
      colours: { primary: "#7a1f5c", background: "#ffffff", text: "#1a1a1a" },
      texts: { en: { legal: "Acme's terms apply." }, de: { logout_button: "Abmelden" } },
    };
    const { app, clientId } = await withClient({ config: { ...config, hostedPages } });
    const fields = { client_id: clientId, post_logout_redirect_uri: AFTER };
    const english = await app.request(`/oauth/logout?${query(fields)}`);
    const page = await english.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain("<title>Sign out · Acme &lt;Cloud&gt;</title>");
    expect(page).toContain('<img class="logo" src="https://cdn.example/logo.svg" alt="Acme &lt;Cloud&gt;">');
    expect(page).toContain('<h1>Sign out of <span id="client-name">App &lt;b&gt;</span>?</h1>');
    expect(page).toContain('<link rel="stylesheet" href="/oauth/logout/pages.css">');
    expect(page).toContain("Acme&#39;s terms apply.");
    // Strict CSP: no inline script or style, the logo's origin allowed for images alone.
    const csp = english.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("img-src 'self' https: data: https://cdn.example");
    expect(csp).not.toContain("unsafe-inline");
    expect(page).not.toMatch(/<script|<style| style=/);
    const css = await app.request("/oauth/logout/pages.css");
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(await css.text()).toContain("--primary:#7a1f5c");
    // ui_locales, carried by the form to its answer; the browser's language otherwise.
    const french = await (
      await app.request(`/oauth/logout?${query({ ...fields, ui_locales: "fr" })}`)
    ).text();
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain("Se déconnecter de");
    expect(french).toContain('name="ui_locales" value="fr"');
    const german = await (
      await app.request(`/oauth/logout?${query(fields)}`, { headers: { "accept-language": "de-DE" } })
    ).text();
    expect(german).toContain('<html lang="de">');
    expect(german).toContain(">Abmelden</button>");
    // Confirmed without a URI to go to: the signed-out page, in the form's language.
    const asked = await app.request(`/oauth/logout?${query({ client_id: clientId, ui_locales: "fr" })}`);
    const form = await asked.text();
    const signedOut = await app.request("/oauth/logout", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: (asked.headers.get("set-cookie") ?? "").split(";")[0] ?? "",
      },
      body: query({
        client_id: clientId,
        ui_locales: "fr",
        csrf: /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? "",
        confirm: "yes",
      }),
    });
    expect(signedOut.status).toBe(200);
    expect(await signedOut.text()).toContain("<h1>Vous êtes déconnecté</h1>");
  });

  it("never redirects to an unregistered URI, and refuses a bad hint or a repeated parameter", async () => {
    const { app, clientId } = await withClient();
    const refusals: Record<string, string>[] = [
      { client_id: clientId, post_logout_redirect_uri: "https://evil.example/" },
      { client_id: clientId, post_logout_redirect_uri: `${AFTER}/` },
      { post_logout_redirect_uri: AFTER },
      { id_token_hint: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", post_logout_redirect_uri: AFTER },
      { client_id: "not-a-client", post_logout_redirect_uri: AFTER },
    ];
    for (const fields of refusals) {
      const refused = await app.request(`/oauth/logout?${query(fields)}`);
      expect(refused.status).toBe(400);
      expect(refused.headers.get("location")).toBeNull();
      expect(await refused.text()).toContain("invalid_request");
    }
    const repeated = await app.request(`/oauth/logout?state=a&state=b&client_id=${clientId}`);
    expect(repeated.status).toBe(400);
  });

  it("shows the signed-out page when no URI is asked for, and 404 while the server is off", async () => {
    const { app, clientId } = await withClient();
    expect((await app.request(`/oauth/logout?client_id=${clientId}`)).status).toBe(200);
    const base = testApp().auth.settings;
    const off = testApp({}, { oauthServer: { ...base.oauthServer, enabled: false } });
    expect((await off.app.request("/oauth/logout")).status).toBe(404);
  });

  it("updates the logout metadata through the admin API, and clears the back-channel URI", async () => {
    const { app, auth, clientId } = await withClient();
    const admin = await bearer(auth, { role: "service_role" });
    const changed = await send(
      app,
      "PUT",
      `/admin/oauth/clients/${clientId}`,
      { post_logout_redirect_uris: [AFTER, "https://app.example/bye2"], backchannel_logout_uri: "" },
      admin,
    );
    expect(changed.status).toBe(200);
    const body = (await changed.json()) as Record<string, unknown>;
    expect(body.post_logout_redirect_uris).toEqual([AFTER, "https://app.example/bye2"]);
    expect(body).not.toHaveProperty("backchannel_logout_uri");
  });
});
