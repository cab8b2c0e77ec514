import type { Endpoint } from "./fuzz-requests.js";

/** Every route the app serves; apps/http/src/fuzz.test.ts checks this list against the app's own. */
export const ENDPOINTS: Endpoint[] = [
  ["GET", "/health"],
  ["GET", "/settings"],
  ["POST", "/signup"],
  ["POST", "/token"],
  ["GET", "/user"],
  ["PUT", "/user"],
  ["GET", "/reauthenticate"],
  ["POST", "/logout"],
  ["GET", "/admin/users"],
  ["POST", "/admin/users"],
  ["GET", "/admin/users/:id"],
  ["PUT", "/admin/users/:id"],
  ["POST", "/admin/users/:id"],
  ["DELETE", "/admin/users/:id"],
  ["POST", "/invite"],
  ["POST", "/admin/generate_link"],
  ["GET", "/verify"],
  ["POST", "/verify"],
  ["POST", "/otp"],
  ["POST", "/magiclink"],
  ["POST", "/recover"],
  ["POST", "/resend"],
].map(([method, path]) => ({ method: method as string, path: path as string }));
