// Field rules the platform enforces, shared by the config validator (to fail before any
// request) and the emulator (to answer as the server does).

export const LABEL_NAME_MIN = 2;
export const LABEL_NAME_MAX = 25;
export const LABEL_DESCRIPTION_MAX = 500;
/** Hex colour, `#rgb`, `#rrggbb` or `#rrggbbaa` (the API caps the string at 9 characters). */
export const LABEL_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export const ROUTINE_NAME_MAX = 255;

/**
 * The length of a text as people count it, and as the limits above are meant: in characters
 * (Unicode code points), so an emoji counts once although JavaScript stores it as two units.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        index += 1;
      }
    }
  }
  return count;
}

/** At most this many entries in one bulk credit-limit PATCH (gaps.md). */
export const CREDIT_LIMIT_BATCH_MAX = 1000;

/** At most this many membership ids in one credit-usage read (the vendor's OmniKit contract). */
export const CREDIT_USAGE_BATCH_MAX = 1000;

/** A pragmatic e-mail check: one `@`, no spaces, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// An address as a mailbox is written, `local@domain` (RFC 5321 dot-atom form, ASCII): no display
// names, angle brackets, `mailto:` or quoted local parts, which a copy-paste brings along.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * The common address in one test (a large config holds thousands): dot-separated atoms of the
 * usual characters, then domain labels and an alphabetic top-level domain. Everything it takes,
 * the checks below take too; what it refuses, they judge.
 */
const PLAIN_ADDRESS = /^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Why `value` is not a plain e-mail address, or undefined when it is one. */
export function emailProblem(value: string): string | undefined {
  return isPlainAddress(value) ? undefined : addressProblem(value);
}

/** Whether `value` is the common address PLAIN_ADDRESS takes (local part of at most 64 characters). */
export function isPlainAddress(value: string): boolean {
  return value.length <= 254 && value.indexOf('@') <= 64 && PLAIN_ADDRESS.test(value);
}

/** emailProblem without the fast path: every check, in the order its messages are chosen. */
export function addressProblem(value: string): string | undefined {
  if (value.trim() !== value) return 'it has spaces before or after it';
  if (/^mailto:/i.test(value)) return 'write the address without `mailto:`';
  if (/[<>]/.test(value)) return 'write the address alone, without a name or `<` `>`';
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.indexOf('@') !== at) return 'an address has exactly one `@` with text before and after it';
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || value.length > 254) return 'it is longer than an e-mail address can be';
  if (/\.\./.test(value)) return 'it has two dots in a row';
  if (local.startsWith('.') || local.endsWith('.')) return 'the part before `@` starts or ends with a dot';
  if (!LOCAL_PART.test(local)) return 'the part before `@` holds a character addresses cannot contain';
  const labels = domain.split('.');
  if (labels.length < 2) return 'the domain after `@` needs a dot, as in `acme.example`';
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return 'the domain after `@` holds a character or dot that domains cannot contain';
  if (!/^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]+)$/.test(labels.at(-1)!)) return 'the domain does not end in a top-level domain such as `.com`';
  return undefined;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Slack ids: channels start with C (or G for private ones), users with U (or W). */
export const SLACK_RECIPIENT_PATTERN = {
  channel: /^[CG][A-Z0-9]{6,}$/,
  users: /^[UW][A-Z0-9]{6,}$/,
} as const;

/** SLACK_RECIPIENT_PATTERN in words, for messages. */
export const SLACK_ID_RULE = {
  channel: 'C or G followed by at least 6 upper-case letters or digits',
  users: 'U or W followed by at least 6 upper-case letters or digits',
} as const;

/** Label names compare case-insensitively on the server. */
export function labelKey(name: string): string {
  return name.toLowerCase();
}

/** E-mail addresses compare case-insensitively. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Uuids compare case-insensitively; other ids exactly. */
export function idKey(id: string): string {
  return UUID_PATTERN.test(id) ? id.toLowerCase() : id;
}

/**
 * Why a label name cannot be used with the API, or undefined when it can: it travels in a path
 * (`/labels/{name}`) and in comma-separated `labels=` lists, so `/`, `\`, `,` and the dot
 * segments `.` and `..` cannot be addressed, and padding would never match the live name.
 */
export function labelNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'it is blank';
  if (name.trim() !== name) return 'it has spaces before or after it';
  if (name === '.' || name === '..') return 'the dot segments `.` and `..` cannot be used in a request path';
  const reserved = /[/\\,]/.exec(name);
  if (reserved !== null) return `it holds \`${reserved[0]}\`, which a label name cannot: names travel in request paths and comma-separated lists`;
  return undefined;
}

/** Why a document identifier cannot be used in a request path, or undefined when it can. */
export function documentIdentifierProblem(identifier: string): string | undefined {
  if (identifier.trim() === '') return 'it is blank';
  if (identifier.trim() !== identifier) return 'it has spaces before or after it';
  if (identifier === '.' || identifier === '..') return 'a dot segment cannot be used in a request path';
  if (/[/\\\s]/.test(identifier)) return 'document identifiers hold no spaces, `/` or `\\`';
  return undefined;
}
