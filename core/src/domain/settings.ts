/** The configuration the use cases read (built from the server's configuration). */
export interface AuthSettings {
  readonly siteUrl: string;
  readonly jwt: {
    readonly exp: number;
    readonly aud: string;
    readonly issuer?: string | undefined;
    /** Role given to new users (`JWT_DEFAULT_GROUP_NAME`). */
    readonly defaultRole: string;
    readonly adminRoles: readonly string[];
  };
  readonly password: { readonly minLength: number; readonly requiredCharacters: readonly string[] };
  readonly refreshTokens: { readonly rotationEnabled: boolean; readonly reuseIntervalMs: number };
  readonly signup: {
    readonly disabled: boolean;
    readonly emailEnabled: boolean;
    readonly phoneEnabled: boolean;
    readonly anonymousEnabled: boolean;
    readonly mailerAutoconfirm: boolean;
    readonly smsAutoconfirm: boolean;
  };
  readonly updatePasswordRequiresReauthentication: boolean;
}
