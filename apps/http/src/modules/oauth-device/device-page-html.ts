/**
 * The verification page's HTML (RFC 8628 §3.3), in the look of the built-in consent page: forms only,
 * no script, every value escaped.
 */
import { escapeHtml, hidden, type Look, page } from "../oauth-server/consent-page-html.js";

/** The form where the user types the code the device shows; `userCode` pre-filled from the link. */
export function userCodePage(
  input: {
    readonly action: string;
    readonly fields: Readonly<Record<string, string>>;
    readonly userCode: string;
    readonly problem?: string | undefined;
  },
  look: Look,
): string {
  const problem = input.problem
    ? `<p class="error" id="problem" role="alert">${escapeHtml(input.problem)}</p>\n`
    : "";
  return page(
    "Connect a device",
    `<h1>Connect a device</h1>
<p>Enter the code shown on your device. You will then sign in and see what the device asks for.</p>
${problem}<form method="post" action="${escapeHtml(input.action)}">
${hidden(input.fields)}
<label for="user_code">Code</label>
<input id="user_code" name="user_code" type="text" value="${escapeHtml(input.userCode)}" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="32" required autofocus${input.problem ? ' aria-describedby="problem" aria-invalid="true"' : ""}>
<button type="submit">Continue</button>
</form>`,
    look,
  );
}

/** After the decision on the consent page: back to the device, or nothing more to do. */
export function devicePageResult(result: "approved" | "denied", look: Look): string {
  return result === "approved"
    ? page(
        "Device connected",
        `<h1>Device connected</h1>\n<p role="status">You can return to your device; it signs in in a few seconds. You may close this page.</p>`,
        look,
      )
    : page(
        "Request denied",
        `<h1>Request denied</h1>\n<p role="status">The device was not given access. You may close this page.</p>`,
        look,
      );
}
