/**
 * Characters a query value may carry as they are and that every query parser reads back unchanged:
 * RFC 3986's query characters without `&`, `=` and `+` (which a form parser splits on or reads as a
 * space), `%` (which would be decoded) and `#` (which ends the query).
 */
const PLAIN_QUERY_VALUE = /^[A-Za-z0-9\-._~!$'()*,;:@/?]*$/;

/**
 * `redirect_to` as an email link carries it. The reference writes it as given unless it holds `&`, `=`
 * or `#` (templatemailer `encodeRedirectURL`), so links read `…&redirect_to=https://app.example.com/welcome`,
 * as auth-js's suite and mail templates that show the link expect. A value that is not plain is
 * percent-encoded whole — including one the reference would take as already encoded (a `%` in it), so
 * `/verify` always receives exactly the URL that was checked against the allow list.
 */
export function redirectParam(redirectTo: string): string {
  return PLAIN_QUERY_VALUE.test(redirectTo) ? redirectTo : encodeURIComponent(redirectTo);
}
