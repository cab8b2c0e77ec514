import type { AuthDeps } from "../deps.js";
import type { AuthSettings } from "../settings.js";
import { fakeHasher } from "./accounts/fake-hasher.js";
import { fakeLeakedPasswords } from "./accounts/fake-leaked-passwords.js";
import { fakeProviderEndpoints } from "./custom-providers/fake-custom-providers.js";
import { fakeProviders } from "./external/fake-providers.js";
import { fakeStore } from "./fake-store.js";
import { fakeHooks } from "./hooks/fake-hooks.js";
import { fakeSecretTokens, fixedClock, sequentialRandom } from "./kernel/fakes.js";
import { fakeDeliveries, fakeMailer, fakeSms } from "./messaging/fake-senders.js";
import { fakeSecretBox, fakeTotp } from "./mfa/fake-mfa.js";
import { fakeIdTokens } from "./oauth-server/fake-oauth-server.js";
import { fakeWebAuthn } from "./passkeys/fake-webauthn.js";
import { fakeSigner } from "./sessions/fake-signer.js";
import { fakeMetadataFetcher, fakeRelayStates, fakeSaml, fakeSsoProviders } from "./sso/fake-sso.js";

/** A limiter that allows each key once. */
function onceEach() {
  const seen = new Set<string>();
  return {
    take: async (key: string) => {
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
  };
}

/** The settings of a default configuration. */
export function defaultAuthSettings(overrides: Partial<AuthSettings> = {}): AuthSettings {
  return {
    siteUrl: "http://localhost:3000",
    apiExternalUrl: "http://localhost:9999",
    uriAllowList: [],
    mailer: {
      otpExp: 3600,
      otpLength: 6,
      maxFrequency: 900,
      rateLimitPerHour: 30,
      secureEmailChange: true,
      urlPaths: {
        confirmation: "/verify",
        invite: "/verify",
        recovery: "/verify",
        magic_link: "/verify",
        email_change: "/verify",
      },
    },
    sms: {
      otpExp: 60,
      otpLength: 6,
      maxFrequency: 60,
      rateLimitPerHour: 30,
      testOtp: { codes: new Map(), validUntil: null },
    },
    jwt: {
      exp: 3600,
      aud: "authenticated",
      defaultRole: "authenticated",
      adminRoles: ["service_role", "supabase_admin"],
    },
    password: { minLength: 6, requiredCharacters: [], leaked: { enabled: false, failClosed: false } },
    refreshTokens: { rotationEnabled: true, reuseIntervalMs: 10_000 },
    sessions: { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false },
    signup: {
      disabled: false,
      emailEnabled: true,
      phoneEnabled: true,
      anonymousEnabled: false,
      mailerAutoconfirm: false,
      smsAutoconfirm: false,
      hideExisting: false,
    },
    updatePasswordRequiresReauthentication: false,
    web3: {
      ethereum: { enabled: false, maxValidityMs: 600_000 },
      solana: { enabled: false, maxValidityMs: 600_000 },
    },
    manualLinkingEnabled: false,
    mfa: {
      challengeExpiry: 300,
      factorExpiry: 300,
      maxEnrolledFactors: 10,
      maxVerifiedFactors: 10,
      totp: { enrollEnabled: true, verifyEnabled: true },
      phone: {
        enrollEnabled: true,
        verifyEnabled: true,
        otpLength: 6,
        maxFrequency: 60,
        template: "Your code is {{ .Code }}",
      },
    },
    passkeys: { enabled: true, maxPerUser: 10, challengeExpiry: 300 },
    webauthn: {
      rp: { id: "localhost", name: "authsvc", origins: ["http://localhost:5173"] },
      mfa: { enrollEnabled: true, verifyEnabled: true },
    },
    oauthServer: {
      enabled: true,
      allowDynamicRegistration: true,
      authorizationPath: "/oauth/consent",
      builtInConsentPage: false,
      authorizationTtlSeconds: 600,
      defaultScope: "email",
      dynamicRegistrationPer5Min: 10,
      allowedResources: [],
    },
    customProviders: { enabled: true, maxProviders: 0 },
    saml: {
      enabled: true,
      relayStateValidityMs: 120_000,
      rateLimitSsoPer5Min: 30,
      rateLimitAssertionPer5Min: 15,
    },
    ...overrides,
  };
}

/** Fakes for every port, with handles to inspect them. */
export function fakeDeps(settings: Partial<AuthSettings> = {}) {
  const clock = fixedClock();
  const store = fakeStore();
  const hasher = fakeHasher();
  const mailer = fakeMailer();
  const deps = {
    store,
    clock,
    random: sequentialRandom(),
    tokens: fakeSecretTokens(),
    hasher,
    leakedPasswords: fakeLeakedPasswords(),
    signer: fakeSigner(clock),
    mailer,
    sms: fakeSms(),
    deliveries: fakeDeliveries(),
    providers: fakeProviders().providers,
    hooks: fakeHooks().dispatcher,
    totp: fakeTotp(),
    secretBox: fakeSecretBox(),
    webauthn: fakeWebAuthn(),
    wallets: { ethereum: async () => false, solana: async () => false },
    signedMessages: onceEach(),
    settings: defaultAuthSettings(settings),
    idTokens: fakeIdTokens(),
    providerEndpoints: fakeProviderEndpoints(),
    ssoProviders: fakeSsoProviders(),
    relayStates: fakeRelayStates(),
    saml: fakeSaml(),
    samlMetadata: fakeMetadataFetcher(),
    samlAssertions: onceEach(),
  } satisfies AuthDeps;
  return deps;
}
