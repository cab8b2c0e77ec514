import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";

/** The person signed in at a fake provider; each fake renders it in its provider's own format. */
export interface FakePerson {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  login: string;
  avatarUrl: string;
}

export const ADA: FakePerson = {
  id: "4242",
  email: "ada@example.com",
  emailVerified: true,
  firstName: "Ada",
  lastName: "Lovelace",
  login: "ada",
  avatarUrl: "https://cdn.example.com/ada.png",
};

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface FakeReply {
  readonly status: number;
  /** Sent as JSON unless a string. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * `server_error` answers HTTP 500; `hang` never answers (for timeouts); `disconnect` drops the
 * connection without an answer.
 */
export type FailureKind = "server_error" | "hang" | "disconnect";

/** What the provider-specific part of a fake tells the generic server. */
export interface FakeBehaviour {
  /** Path prefix of the adapter's base URL (`/realms/main` for Keycloak, `/<tenant>` for Azure). */
  readonly basePath?: string;
  /** Paths relative to the fake's origin. */
  readonly authorizePath: string;
  readonly tokenPath: string;
  /** How the provider authenticates the client at its token endpoint. */
  readonly clientAuth: "post" | "basic";
  /** The answer to a token request with an unknown or used code, in the provider's words. */
  badCode(): FakeReply;
  /** The answer to a token request with wrong client credentials. */
  badClient(): FakeReply;
  /** The token answer's body for a good code (access_token etc.); `idToken` signs an ID token. */
  tokenAnswer(accessToken: string, fake: FakeProvider): Promise<Record<string, unknown>>;
  /** Resource endpoints by `"GET /path"`: the person's data in the provider's format, or an error reply. */
  readonly resources: Readonly<
    Record<string, (person: FakePerson, req: FakeRequest, fake: FakeProvider) => FakeReply>
  >;
  /** The answer to a resource request with an unknown or revoked token. */
  unauthorized(): FakeReply;
  /**
   * The provider requires PKCE (S256), as X does: an authorization request without a challenge is
   * refused, and a code is exchanged only with the verifier of its challenge (else `badCode`).
   */
  readonly pkce?: boolean;
  /** ID tokens: the JWKS path and the issuer (relative to the base URL), for OpenID providers. */
  readonly idTokens?: { readonly jwksPath: string; readonly issuer: (baseUrl: string) => string };
}

export interface FakeProvider {
  /** The base URL to configure (`EXTERNAL_<P>_URL`). */
  readonly url: string;
  readonly origin: string;
  readonly clientId: string;
  readonly secret: string;
  /** The person who signs in next. */
  person: FakePerson;
  /** Every request received, in order. */
  readonly requests: FakeRequest[];
  /** Makes the next request fail this way (once). */
  failNext(kind: FailureKind): void;
  /** Revokes every access token issued so far. */
  revokeTokens(): void;
  /** Signs an ID token with the fake's current key (issuer, audience, times filled in unless given). */
  signIdToken(
    claims: JWTPayload,
    options?: { alg?: string; kid?: string; expiresIn?: string },
  ): Promise<string>;
  /** Replaces the signing key (key rotation): tokens signed from now on carry a new `kid`. */
  rotateKey(): Promise<void>;
  readonly issuer: string;
  close(): Promise<void>;
}

/** An authorization code the fake handed out: where it was sent, and whom it signs in. */
interface IssuedCode {
  readonly redirectUri: string;
  readonly person: FakePerson;
  /** The S256 challenge the authorization request carried, if any. */
  readonly challenge: string | null;
}

/** Starts a loopback fake of one provider on 127.0.0.1 with an ephemeral port. */
export async function startFakeProvider(
  behaviour: FakeBehaviour,
  credentials: { clientId: string; secret: string } = { clientId: "client-1234", secret: "s3cret/+=&x" },
): Promise<FakeProvider> {
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, FakePerson>();
  const failures: FailureKind[] = [];
  const requests: FakeRequest[] = [];
  // RSA key generation is slow: one key per test process, unless a test rotates it.
  sharedKey ??= newKey();
  let key = await sharedKey;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const failure = failures.shift();
      if (failure === "hang") return;
      if (failure === "disconnect") {
        req.socket.destroy();
        return;
      }
      const url = new URL(req.url ?? "/", "http://fake");
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const answer: Promise<FakeReply> =
        failure === "server_error"
          ? Promise.resolve({ status: 500, body: "<html>Internal Server Error</html>" })
          : route(request);
      void answer.then((reply) => {
        const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
        const type = typeof reply.body === "string" ? "text/html; charset=utf-8" : "application/json";
        res.writeHead(reply.status, { "content-type": type, ...reply.headers });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${origin}${behaviour.basePath ?? ""}`;

  const fake: FakeProvider = {
    url,
    origin,
    ...credentials,
    person: { ...ADA },
    requests,
    issuer: behaviour.idTokens?.issuer(url) ?? url,
    failNext: (kind) => void failures.push(kind),
    revokeTokens: () => tokens.clear(),
    async signIdToken(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iat: now,
        exp: now + 3600,
        iss: fake.issuer,
        aud: credentials.clientId,
        ...claims,
      })
        .setProtectedHeader({ alg: options.alg ?? "RS256", kid: options.kid ?? key.kid, typ: "JWT" })
        .sign(key.privateKey);
    },
    async rotateKey() {
      key = await newKey();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function route(req: FakeRequest): Promise<FakeReply> {
    if (req.method === "GET" && req.path === behaviour.authorizePath) return authorize(req);
    if (req.method === "POST" && req.path === behaviour.tokenPath) return token(req);
    if (
      behaviour.idTokens &&
      req.method === "GET" &&
      req.path === `${behaviour.basePath ?? ""}${behaviour.idTokens.jwksPath}`
    ) {
      return { status: 200, body: { keys: [key.publicJwk] } };
    }
    const resource = behaviour.resources[`${req.method} ${req.path}`];
    if (!resource) return { status: 404, body: { error: "not_found" } };
    const person = tokens.get(/^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "");
    return person ? resource(person, req, fake) : behaviour.unauthorized();
  }

  function authorize(req: FakeRequest): FakeReply {
    const q = req.query;
    const redirectUri = q.get("redirect_uri");
    if (q.get("client_id") !== credentials.clientId || q.get("response_type") !== "code" || !redirectUri) {
      return { status: 400, body: "<html>invalid authorization request</html>" };
    }
    const challenge = q.get("code_challenge");
    if (behaviour.pkce && (!challenge || q.get("code_challenge_method") !== "S256")) {
      return { status: 400, body: "<html>Missing PKCE parameters</html>" };
    }
    const code = randomBytes(12).toString("hex");
    codes.set(code, { redirectUri, person: { ...fake.person }, challenge });
    const state = q.get("state") ?? "";
    if (q.get("response_mode") === "form_post") {
      // As Apple does: an auto-submitting form that POSTs the code and state to the redirect URI.
      const input = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}"/>`;
      const form = `<form method="post" action="${redirectUri}">${input("code", code)}${input("state", state)}</form>`;
      return { status: 200, body: `<html><body>${form}</body></html>` };
    }
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", state);
    return { status: 302, body: "", headers: { location: back.toString() } };
  }

  async function token(req: FakeRequest): Promise<FakeReply> {
    const form = new URLSearchParams(req.body);
    const client = behaviour.clientAuth === "basic" ? basicAuthOf(req) : postedClientOf(form);
    if (client?.user !== credentials.clientId || client.password !== credentials.secret)
      return behaviour.badClient();
    const issued = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    if (
      form.get("grant_type") !== "authorization_code" ||
      !issued ||
      issued.redirectUri !== form.get("redirect_uri") ||
      (issued.challenge !== null && s256(form.get("code_verifier") ?? "") !== issued.challenge)
    ) {
      return behaviour.badCode();
    }
    const accessToken = randomBytes(16).toString("hex");
    tokens.set(accessToken, issued.person);
    return { status: 200, body: await behaviour.tokenAnswer(accessToken, fake) };
  }

  return fake;
}

let sharedKey: ReturnType<typeof newKey> | undefined;

async function newKey() {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const kid = randomBytes(6).toString("hex");
  return { privateKey, kid, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

/** Client credentials sent HTTP Basic, form-urlencoded inside as RFC 6749 §2.3.1 says. */
function basicAuthOf(req: FakeRequest): { user: string; password: string } | null {
  const match = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const unform = (s: string) => decodeURIComponent(s.replaceAll("+", " "));
  return colon < 0
    ? null
    : { user: unform(decoded.slice(0, colon)), password: unform(decoded.slice(colon + 1)) };
}

function postedClientOf(form: URLSearchParams): { user: string; password: string } | null {
  const user = form.get("client_id");
  const password = form.get("client_secret");
  return user === null || password === null ? null : { user, password };
}

/** A standard OAuth 2.0 token answer. */
export function bearer(accessToken: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    access_token: accessToken,
    token_type: "bearer",
    expires_in: 3600,
    refresh_token: `r-${accessToken}`,
    ...extra,
  };
}

export const json = (status: number, body: unknown): FakeReply => ({ status, body });

/** The S256 code challenge of a PKCE verifier (RFC 7636). */
const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");
