import type {
  AuthorizationRequest,
  ExternalProvider,
  ExternalProviders,
  ExternalUser,
  IdTokenVerifier,
} from "../../external/index.js";
import { failures } from "../../failures.js";

/** A person the fake provider signs in: subject, one address and whether the provider vouches for it. */
export interface FakePerson {
  readonly subject: string;
  readonly email: string;
  readonly verified: boolean;
  readonly name?: string;
}

const userOf = (p: FakePerson): ExternalUser => ({
  subject: p.subject,
  emails: [{ email: p.email, verified: p.verified, primary: true }],
  identityData: {
    sub: p.subject,
    email: p.email,
    email_verified: p.verified,
    name: p.name ?? p.subject,
    provider_id: p.subject,
  },
});

/**
 * One fake provider, `name`: the authorization URL records the request; `code-<n>` codes are issued
 * by `authorize(person)` and exchange once; ID tokens are `idtoken:<subject>:<nonce>` for people it knows.
 */
export function fakeProviders(name = "keycloak") {
  const people = new Map<string, FakePerson>();
  const codes = new Map<string, FakePerson>();
  const requests: AuthorizationRequest[] = [];
  let issued = 0;
  const provider: ExternalProvider = {
    name,
    authorizationUrl: (request) => {
      requests.push(request);
      return `https://${name}.example/auth?state=${request.state}`;
    },
    exchangeCode: async (code) => {
      const person = codes.get(code);
      codes.delete(code);
      if (!person) throw failures.externalCodeExchangeFailed(code.slice(0, 4));
      return { accessToken: `pat-${person.subject}`, refreshToken: `prt-${person.subject}`, idToken: null };
    },
    fetchUser: async (tokens) => {
      const person = people.get(tokens.accessToken.slice(4));
      if (!person) throw failures.externalUserFetchFailed();
      return userOf(person);
    },
  };
  const verifier: IdTokenVerifier = {
    name,
    verify: async (token) => {
      const [kind, subject = "", nonce = ""] = token.split(":");
      const person = people.get(subject);
      if (kind !== "idtoken" || !person) throw failures.badIdToken();
      return { user: userOf(person), nonce: nonce === "" ? null : nonce };
    },
  };
  const providers: ExternalProviders = {
    provider: async (n) => (n === name ? provider : null),
    idTokenVerifier: async (n) => (n === name ? verifier : null),
  };
  return {
    providers,
    requests,
    /** Signs `person` in at the provider: answers the code it sends back to `/callback`. */
    authorize(person: FakePerson): string {
      people.set(person.subject, person);
      const code = `code-${++issued}`;
      codes.set(code, person);
      return code;
    },
    /** An ID token of `person` carrying `nonce` (already hashed, as the client puts it). */
    idToken(person: FakePerson, nonce = ""): string {
      people.set(person.subject, person);
      return `idtoken:${person.subject}:${nonce}`;
    },
  };
}
