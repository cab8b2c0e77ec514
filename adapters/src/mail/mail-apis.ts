/** Mail through providers' HTTP APIs: the mailer, and one request builder per provider. */
export { type ApiMailerOptions, apiMailer, type MailApiProvider } from "./mail-api.js";
export { type MailgunApiOptions, mailgunApi } from "./mailgun-api.js";
export { type PostmarkApiOptions, postmarkApi } from "./postmark-api.js";
export { type ResendApiOptions, resendApi } from "./resend-api.js";
export { type SendgridApiOptions, sendgridApi } from "./sendgrid-api.js";
export { type SesApiOptions, sesApi } from "./ses-api.js";
