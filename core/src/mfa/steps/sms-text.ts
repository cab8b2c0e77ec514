/** The text of a phone factor's code: `MFA_PHONE_TEMPLATE` with `{{ .Code }}` (the reference's Go template) filled. */
export function smsCodeText(template: string, code: string): string {
  return template.replaceAll(/\{\{\s*\.Code\s*\}\}/g, code);
}
