import { sliceFakes } from "../slice-fakes.js";
import { fakeSecretTokens, sequentialRandom } from "./fakes.js";

/** The kernel's settings of a default configuration, and its randomness and secret tokens. */
export const kernelFakes = sliceFakes({
  settings: {
    siteUrl: "http://localhost:3000",
    apiExternalUrl: "http://localhost:9999",
    uriAllowList: [] as readonly string[],
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
      testOtp: { codes: new Map<string, string>(), validUntil: null },
      whatsapp: false,
    },
    jwt: {
      exp: 3600,
      aud: "authenticated",
      defaultRole: "authenticated",
      adminRoles: ["service_role", "supabase_admin"],
    },
    password: { minLength: 6, requiredCharacters: [], leaked: { enabled: false, failClosed: false } },
    signup: {
      disabled: false,
      emailEnabled: true,
      phoneEnabled: true,
      anonymousEnabled: false,
      mailerAutoconfirm: false,
      smsAutoconfirm: false,
      hideExisting: false,
    },
  },
  deps: () => ({ random: sequentialRandom(), tokens: fakeSecretTokens() }),
});
