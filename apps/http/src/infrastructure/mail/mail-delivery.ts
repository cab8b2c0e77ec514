import type { Config } from "../../config/types.js";

/**
 * The features that send mail and are on while nothing can deliver it: no SMTP host or mail API, no send-email
 * hook, and not embedded mode (which writes mail to the log). Empty when mail can go out. Invitations
 * are always on (the admin API), so a server without any way to mail always has one.
 */
export function undeliverableMailFeatures(config: Config): string[] {
  if (config.smtp.host !== undefined || config.mailApi.provider !== undefined) return [];
  if (config.hooks.send_email !== undefined || config.embedded) return [];
  const email = config.external.email.enabled;
  const confirming = !config.mailer.autoconfirm;
  const features: [boolean, string][] = [
    [email && confirming && !config.disableSignup, "sign-up confirmations"],
    [email, "magic links and email codes"],
    [email, "password recovery"],
    [confirming, "email changes"],
    [true, "invitations"],
    [config.security.updatePasswordRequireReauthentication, "reauthentication codes"],
  ];
  return features.filter(([on]) => on).map(([, feature]) => feature);
}

/** What the start log and `GET /health/ready` say about mail that cannot be delivered, if anything. */
export function mailDeliveryWarning(config: Config): string | undefined {
  const features = undeliverableMailFeatures(config);
  if (features.length === 0) return undefined;
  const signups = features.includes("sign-up confirmations")
    ? "; a sign-up that needs a confirmation is answered, then removed when its mail fails"
    : "";
  return `no mail can be sent (none of AUTHSVC_SMTP_HOST, AUTHSVC_MAILER_PROVIDER, AUTHSVC_HOOK_SEND_EMAIL_ENABLED is set): ${features.join(", ")} will fail${signups}`;
}
