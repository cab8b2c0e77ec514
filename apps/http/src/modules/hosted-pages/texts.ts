/**
 * The hosted pages' words, by locale: English and French built in, each text replaceable per locale by
 * `HOSTED_PAGES_TEXTS`, and any other locale added there (its missing texts are English). `{name}`
 * marks a value filled in (escaped) when the page is made.
 */
export const ENGLISH = {
  sign_in_title: "Sign in",
  sign_in_heading: "Sign in to {product}",
  sign_in_intro: "An application asks to use your account. Sign in to continue.",
  email: "Email",
  password: "Password",
  sign_in_button: "Sign in",
  or: "or",
  otp_send_button: "Email me a sign-in code",
  otp_heading: "Check your email",
  otp_intro: "If {email} has an account, we sent it a code. Enter it here.",
  otp_code: "Code from the email",
  otp_button: "Continue",
  passkey_button: "Sign in with a passkey",
  passkey_unavailable: "This browser cannot use passkeys.",
  passkey_failed: "The passkey sign-in did not complete. Try again.",
  provider_button: "Continue with {provider}",
  provider_failed: "The sign-in with the provider did not complete. Try again.",
  sso_domain: "Company email domain",
  sso_button: "Continue with single sign-on",
  mfa_title: "Two-step verification",
  mfa_heading: "Two-step verification",
  mfa_intro: "Enter the 6-digit code from your authenticator app.",
  mfa_code: "Authentication code",
  mfa_button: "Verify",
  consent_title: "Allow {client}?",
  consent_heading: "Allow {client}?",
  consent_signed_in_as: "Signed in as {email}. The application asks to:",
  consent_resource: "This access is for {resource}, which will accept it.",
  consent_redirect: "You will then be sent to {host}.",
  consent_self_asserted:
    "This application describes itself at {host}: its name is its own claim, not checked by this site.",
  allow: "Allow",
  deny: "Deny",
  problem_title: "Cannot continue",
  logout_title: "Sign out",
  logout_heading: "Sign out?",
  logout_heading_client: "Sign out of {client}?",
  logout_intro: "You are about to sign out. The application that sent you here will no longer be signed in.",
  logout_button: "Sign out",
  signed_out_title: "Signed out",
  signed_out_heading: "You are signed out",
  signed_out_intro: "You may close this window.",
  logout_refused_title: "Sign-out refused",
  logout_form_expired: "This form has expired. Sign out again from the app.",
  form_expired: "This form has expired. Open the link again.",
  link_missing_id: "The link is missing its authorization_id.",
  not_found: "Not found",
  legal: "",
  scope_openid: "Confirm who you are",
  scope_email: "See your email address",
  scope_profile: "See your name, picture and profile",
  scope_phone: "See your phone number",
  scope_offline_access: "Stay connected while you are away",
} as const;

export type TextKey = keyof typeof ENGLISH;
export type Texts = Readonly<Record<TextKey, string>>;
export const TEXT_KEYS = Object.keys(ENGLISH) as TextKey[];

const FRENCH: Texts = {
  sign_in_title: "Connexion",
  sign_in_heading: "Se connecter à {product}",
  sign_in_intro: "Une application demande à utiliser votre compte. Connectez-vous pour continuer.",
  email: "E-mail",
  password: "Mot de passe",
  sign_in_button: "Se connecter",
  or: "ou",
  otp_send_button: "Recevoir un code par e-mail",
  otp_heading: "Consultez vos e-mails",
  otp_intro: "Si {email} a un compte, un code lui a été envoyé. Saisissez-le ici.",
  otp_code: "Code reçu par e-mail",
  otp_button: "Continuer",
  passkey_button: "Se connecter avec une clé d’accès",
  passkey_unavailable: "Ce navigateur ne peut pas utiliser de clé d’accès.",
  passkey_failed: "La connexion avec la clé d’accès n’a pas abouti. Réessayez.",
  provider_button: "Continuer avec {provider}",
  provider_failed: "La connexion avec le fournisseur n’a pas abouti. Réessayez.",
  sso_domain: "Domaine de l’e-mail de l’entreprise",
  sso_button: "Continuer avec l’authentification unique",
  mfa_title: "Vérification en deux étapes",
  mfa_heading: "Vérification en deux étapes",
  mfa_intro: "Saisissez le code à 6 chiffres de votre application d’authentification.",
  mfa_code: "Code d’authentification",
  mfa_button: "Vérifier",
  consent_title: "Autoriser {client} ?",
  consent_heading: "Autoriser {client} ?",
  consent_signed_in_as: "Connecté en tant que {email}. L’application demande à :",
  consent_resource: "Cet accès est pour {resource}, qui l’acceptera.",
  consent_redirect: "Vous serez ensuite envoyé vers {host}.",
  consent_self_asserted:
    "Cette application se décrit elle-même sur {host} : son nom est sa propre affirmation, non vérifiée par ce site.",
  allow: "Autoriser",
  deny: "Refuser",
  problem_title: "Impossible de continuer",
  logout_title: "Déconnexion",
  logout_heading: "Se déconnecter ?",
  logout_heading_client: "Se déconnecter de {client} ?",
  logout_intro:
    "Vous êtes sur le point de vous déconnecter. L’application qui vous a envoyé ici ne sera plus connectée.",
  logout_button: "Se déconnecter",
  signed_out_title: "Déconnecté",
  signed_out_heading: "Vous êtes déconnecté",
  signed_out_intro: "Vous pouvez fermer cette fenêtre.",
  logout_refused_title: "Déconnexion refusée",
  logout_form_expired: "Ce formulaire a expiré. Déconnectez-vous à nouveau depuis l’application.",
  form_expired: "Ce formulaire a expiré. Ouvrez le lien à nouveau.",
  link_missing_id: "Il manque authorization_id au lien.",
  not_found: "Page introuvable",
  legal: "",
  scope_openid: "Confirmer qui vous êtes",
  scope_email: "Voir votre adresse e-mail",
  scope_profile: "Voir votre nom, votre photo et votre profil",
  scope_phone: "Voir votre numéro de téléphone",
  scope_offline_access: "Rester connecté en votre absence",
};

/** The built-in locales' texts. */
export const BUILT_IN: Readonly<Record<string, Texts>> = { en: ENGLISH, fr: FRENCH };

/** A locale tag as the pages accept it (`en`, `fr`, `pt-BR`): letters, digits and hyphens. */
export const LOCALE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** Every locale's texts: the built-in ones, then the configured replacements; English fills the gaps. */
export function catalogue(
  overrides: Readonly<Record<string, Partial<Texts>>>,
): Readonly<Record<string, Texts>> {
  const locales = new Set([...Object.keys(BUILT_IN), ...Object.keys(overrides)].map((l) => l.toLowerCase()));
  const out: Record<string, Texts> = {};
  for (const locale of locales) {
    const given = Object.entries(overrides).find(([l]) => l.toLowerCase() === locale)?.[1] ?? {};
    out[locale] = { ...ENGLISH, ...BUILT_IN[locale], ...given };
  }
  return out;
}

/**
 * The locale to answer in: the first of `ui_locales` (OpenID Connect, space-separated, in order of
 * preference) the pages have, then of `Accept-Language` (by its q-values), each tried whole then by
 * its language (`fr-CA` → `fr`); else the configured default.
 */
export function chooseLocale(
  available: Iterable<string>,
  uiLocales: string | undefined,
  acceptLanguage: string | undefined,
  fallback: string,
): string {
  const have = new Set(available);
  const wanted = [
    ...(uiLocales ?? "").split(/\s+/),
    ...(acceptLanguage ?? "")
      .split(",")
      .map((part, index) => {
        const [tag = "", ...params] = part.trim().split(";");
        const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
        return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
      })
      .filter((entry) => entry.q > 0)
      .sort((a, b) => b.q - a.q || a.index - b.index)
      .map((entry) => entry.tag),
  ];
  for (const tag of wanted) {
    if (!LOCALE.test(tag)) continue;
    const lower = tag.toLowerCase();
    if (have.has(lower)) return lower;
    const language = lower.split("-")[0] ?? "";
    if (have.has(language)) return language;
  }
  return fallback;
}

/**
 * A text as HTML: its words and its `{name}` values escaped, each value passed through `wrap` (an
 * element around it) once escaped. The configured texts are escaped too: no markup comes from them.
 */
export function fill(
  text: string,
  values: Readonly<Record<string, string>>,
  escapeValue: (s: string) => string,
  wrap: (name: string, escaped: string) => string = (_name, escaped) => escaped,
): string {
  return text
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const name = /^\{([a-z_]+)\}$/.exec(part)?.[1];
      return name !== undefined && name in values
        ? wrap(name, escapeValue(values[name] as string))
        : escapeValue(part);
    })
    .join("");
}
