/**
 * Every value of the cookie named exactly `name` in a Cookie header or a `document.cookie` string,
 * in the order given: a browser sends two of one name when another app of the same domain set one
 * on the parent domain. A value may hold '=' itself.
 */
export function cookieValues(cookies: string | undefined, name: string): string[] {
  return (cookies ?? '')
    .split(';')
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie.startsWith(`${name}=`))
    .map((cookie) => cookie.slice(name.length + 1));
}
