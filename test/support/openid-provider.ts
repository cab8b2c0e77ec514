import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

/** The client authsvc is registered as at the test's OpenID Provider. */
export const OP_CLIENT = { id: "authsvc", secret: "authsvc-client-secret" } as const;

export interface OpenIdProvider {
  /** The realm URL, as EXTERNAL_KEYCLOAK_URL takes it (`…/realms/test`); also the issuer. */
  readonly realm: string;
  close(): Promise<void>;
}

const PREFIX = "/realms/test";

/**
 * A real OpenID Provider (`oidc-provider`) on 127.0.0.1, laid out like a Keycloak realm
 * (`/realms/test/protocol/openid-connect/{auth,token,userinfo,certs}`), with its development login
 * and consent pages: any login name signs in as that account, whose address is `<login>@example.com`
 * (verified, unless the login starts with `unverified`); `unverified.<name>` is another account whose
 * address is `<name>@example.com`, unverified: someone claiming `<name>`'s address at the provider.
 */
export async function startOpenIdProvider(redirectUris: readonly string[]): Promise<OpenIdProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const realm = `http://127.0.0.1:${port}${PREFIX}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(realm, {
    clients: [
      {
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
        redirect_uris: [...redirectUris],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "op-key-1", alg: "RS256", use: "sig" }] },
    cookies: { keys: ["a-cookie-signing-key-for-the-test-op"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username"],
    },
    // The scopes' claims also go into the ID token, as Keycloak puts them there.
    conformIdTokenClaims: false,
    pkce: { required: () => false },
    routes: {
      authorization: "/protocol/openid-connect/auth",
      token: "/protocol/openid-connect/token",
      userinfo: "/protocol/openid-connect/userinfo",
      jwks: "/protocol/openid-connect/certs",
    },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: `${id.replace(/^unverified\./, "")}@example.com`,
        email_verified: !id.startsWith("unverified"),
        name: `Person ${id}`,
        preferred_username: id,
      }),
    }),
  });
  const handle = provider.callback();
  server.on("request", (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => {
    if (!req.url?.startsWith(PREFIX)) {
      res.writeHead(404).end();
      return;
    }
    // Mounted under the realm's path, as an express app would mount it.
    req.originalUrl = req.url;
    req.url = req.url.slice(PREFIX.length) || "/";
    void handle(req, res);
  });
  return {
    realm,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A browser's cookie jar for one origin: keeps what `Set-Cookie` gave, sends it back. */
export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    keep(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const eq = pair.indexOf("=");
        if (eq <= 0) continue;
        const name = pair.slice(0, eq).trim();
        // A cookie answered with Max-Age=0 is dropped, as a browser drops it.
        if (/;\s*max-age=0(;|$)/i.test(line)) cookies.delete(name);
        else cookies.set(name, pair.slice(eq + 1).trim());
      }
    },
  };
}
