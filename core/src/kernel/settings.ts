/**
 * The settings every slice may read (built from the server's configuration). A slice's own settings
 * live in its `settings.ts`; `core/src/settings.ts` composes them into `AuthSettings`.
 */
export interface KernelSettings {
  readonly siteUrl: string;
  /** Where the service is reachable from outside: links in messages point here. */
  readonly apiExternalUrl: string;
  /** `URI_ALLOW_LIST`: globs a `redirect_to` may match besides SITE_URL's host. */
  readonly uriAllowList: readonly string[];
  readonly mailer: {
    /** Seconds an email link or code stays valid (`MAILER_OTP_EXP`). */
    readonly otpExp: number;
    readonly otpLength: number;
    /** Seconds between two confirmation, or two recovery, mails to one address (`SMTP_MAX_FREQUENCY`). */
    readonly maxFrequency: number;
    /** Emails per hour over all instances (`RATE_LIMIT_EMAIL_SENT`). */
    readonly rateLimitPerHour: number;
    readonly secureEmailChange: boolean;
    /** Path of the link in each kind of mail (`MAILER_URLPATHS_<KIND>`), e.g. `/verify`. */
    readonly urlPaths: Readonly<
      Record<"confirmation" | "invite" | "recovery" | "magic_link" | "email_change", string>
    >;
  };
  readonly sms: {
    readonly otpExp: number;
    readonly otpLength: number;
    /** Seconds between two SMS to one number (`SMS_MAX_FREQUENCY`). */
    readonly maxFrequency: number;
    /** SMS per hour over all instances (`RATE_LIMIT_SMS_SENT`). */
    readonly rateLimitPerHour: number;
    /**
     * Test phone numbers (`SMS_TEST_OTP`): the fixed code of each number (E.164 digits without `+`),
     * used until `validUntil` (`SMS_TEST_OTP_VALID_UNTIL`; null: always).
     */
    readonly testOtp: { readonly codes: ReadonlyMap<string, string>; readonly validUntil: Date | null };
    /**
     * Codes may go by WhatsApp (`channel: "whatsapp"`): the gateway (Twilio), a send-SMS hook or the
     * development log can carry them.
     */
    readonly whatsapp: boolean;
  };
  readonly jwt: {
    readonly exp: number;
    readonly aud: string;
    readonly issuer?: string | undefined;
    /** Role given to new users (`JWT_DEFAULT_GROUP_NAME`). */
    readonly defaultRole: string;
    readonly adminRoles: readonly string[];
  };
  readonly password: {
    readonly minLength: number;
    readonly requiredCharacters: readonly string[];
    /** The leaked-password check (`PASSWORD_HIBP_ENABLED`, `PASSWORD_HIBP_FAIL_CLOSED`). */
    readonly leaked: { readonly enabled: boolean; readonly failClosed: boolean };
  };
  readonly signup: {
    readonly disabled: boolean;
    readonly emailEnabled: boolean;
    readonly phoneEnabled: boolean;
    readonly anonymousEnabled: boolean;
    readonly mailerAutoconfirm: boolean;
    readonly smsAutoconfirm: boolean;
    /**
     * `SECURITY_SIGNUP_HIDE_EXISTING`: a sign-up answer's `identities` is always empty, so that it never
     * tells whether the address was taken (the reference's answer tells).
     */
    readonly hideExisting: boolean;
  };
}
