// Turns the configured instance address into the one origin every request is joined to, and
// builds request paths whose segments cannot escape their place (encoding, dot segments).

import { StewardError } from '../errors.js';

/** Query values the client accepts; `undefined` drops the parameter. */
export type QueryValue = string | number | boolean | undefined;

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

function isLoopback(hostname: string): boolean {
  if (LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost')) return true;
  return /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether a base URL names this machine (an emulator): the one kind of address a saved plan may
 * send the token to on its own word. False for anything that is not a URL.
 */
export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    return isLoopback(new URL(baseUrl.trim()).hostname);
  } catch {
    return false;
  }
}

/**
 * Two base URLs that name the same instance, as the client would join requests to them
 * (`https://host`, `https://host/`, `https://host/api`); an invalid one equals only itself.
 */
export function sameInstance(left: string, right: string): boolean {
  const origin = (baseUrl: string): string => {
    try {
      return resolveInstanceOrigin(baseUrl);
    } catch {
      return baseUrl.trim();
    }
  };
  return origin(left) === origin(right);
}

/**
 * Returns the instance origin (`https://host[:port]`) of a configured base URL. Accepts the bare
 * origin or one already ending in `/api` (trailing slashes allowed); refuses `http://` for
 * anything but loopback (`config.insecure-url`) and anything else that is not an origin
 * (`config.invalid-url`). Messages never echo credentials embedded in the URL.
 */
export function resolveInstanceOrigin(baseUrl: string): string {
  const trimmed = baseUrl.trim();
  // What looks like user-info (`scheme://…@`) is refused before parsing, whatever else is wrong
  // with the address, so no message below can quote part of a pasted token.
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*@/.test(trimmed)) throw credentialsError();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new StewardError('config.invalid-url', `The API base URL is not a valid URL.`, 'user', {
      hint: 'Give the instance origin, e.g. https://acme.example.com',
    });
  }
  if (url.username !== '' || url.password !== '') throw credentialsError();
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new StewardError(
      'config.invalid-url',
      `The API base URL ${shown} must use https:// (http:// only for a local address).`,
      'user',
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new StewardError(
      'config.insecure-url',
      `Refusing to send the API token over plain http:// to ${url.host}.`,
      'user',
      { hint: `Use https://${url.host}; http:// is accepted only for localhost and 127.0.0.1.` },
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new StewardError(
      'config.invalid-url',
      `The API base URL ${shown} must not carry a query string or fragment.`,
      'user',
    );
  }
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  if (path !== '' && path !== '/api') {
    throw new StewardError(
      'config.invalid-url',
      `The API base URL ${shown} has the path "${url.pathname}"; expected the instance origin.`,
      'user',
      { hint: `Use ${url.origin} (an origin ending in /api is accepted too).` },
    );
  }
  return url.origin;
}

function credentialsError(): StewardError {
  return new StewardError('config.invalid-url', `The API base URL must not carry credentials (user:password@); the token is passed separately.`, 'user', {
    hint: 'Give the instance origin alone; if a real token was in it, revoke that token.',
  });
}

/**
 * Encodes one path segment (a label name, a document identifier) so it stays one segment.
 * Refuses empty, `.` and `..` values: URL parsers resolve those as dot segments whatever
 * their encoding, so they would address a different resource.
 */
export function encodePathSegment(value: string, what: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new StewardError(
      'api.invalid-path-segment',
      `The ${what} ${JSON.stringify(value)} cannot be used in a request path.`,
      'user',
    );
  }
  return encodeURIComponent(value);
}

/**
 * Fills `{name}` placeholders of a path template with encoded segments; the template itself
 * stays the route name used in stats, logs and errors. Throws if a placeholder has no value.
 */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) {
      throw new StewardError('internal.path', `No value for {${name}} in ${template}.`, 'tool');
    }
    // `labelName` → "label name", for the message when the value cannot be a segment.
    return encodePathSegment(value, name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  });
}

/** Serialises query parameters in order, dropping undefined ones; spaces become %20. */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
