/**
 * The hosted pages' HTML moved to modules/hosted-pages: their layout and pages, re-exported for the
 * pages built on them.
 */
export {
  CAPTCHA_WIDGETS,
  contentSecurityPolicy,
  DEFAULT_LOOK,
  escapeHtml,
  hidden,
  type Look,
  page,
} from "../hosted-pages/layout.js";
export { consentPage, mfaPage, problemPage, signInPage } from "../hosted-pages/pages.js";
