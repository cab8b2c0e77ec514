import { type Operation, REDIRECT_QUERY, ref } from "../http/operation.js";
import { MagicLinkBody, OtpBody, RecoverBody, ResendBody } from "./messages.js";

// Each answers alike whether or not the address has a user; a refused send (limits) is 429.
const sent = { description: "Sent, or nothing to send: the answer does not tell which." };

/** `POST /otp`, `/magiclink`, `/recover`, `/resend` (routes/messages.ts). */
export const messageOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/otp",
    summary: "Sends a one-time code or link by mail (`email`) or SMS (`phone`); may create the user.",
    hooks: true,
    access: "public",
    limited: true,
    query: [REDIRECT_QUERY],
    body: {
      schema: OtpBody,
      fields: {
        create_user: { description: "Whether an unknown address gets a new user (default true)." },
        data: { description: "The new user's `user_metadata`." },
      },
    },
    responses: { 200: { ...sent, body: ref("MessageId") } },
    errors: [422],
  },
  {
    method: "post",
    path: "/magiclink",
    summary: "Mails a sign-in link.",
    hooks: true,
    access: "public",
    limited: true,
    query: [REDIRECT_QUERY],
    body: { schema: MagicLinkBody },
    responses: { 200: { ...sent, body: ref("Empty") } },
    errors: [422],
  },
  {
    method: "post",
    path: "/recover",
    summary: "Mails a password-recovery link.",
    hooks: true,
    access: "public",
    limited: true,
    query: [REDIRECT_QUERY],
    body: { schema: RecoverBody },
    responses: { 200: { ...sent, body: ref("Empty") } },
    errors: [422],
  },
  {
    method: "post",
    path: "/resend",
    summary: "Sends again the code or link of a sign-up, email change, SMS or phone change.",
    hooks: true,
    access: "public",
    limited: true,
    query: [REDIRECT_QUERY],
    body: {
      schema: ResendBody,
      fields: { type: { enum: ["signup", "email_change", "sms", "phone_change"], description: "Required." } },
    },
    responses: { 200: { ...sent, body: ref("MessageId") } },
    errors: [422],
  },
];
