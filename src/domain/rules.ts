// Field rules the platform enforces, shared by the config validator (to fail before any
// request) and the emulator (to answer as the server does).

export const LABEL_NAME_MIN = 2;
export const LABEL_NAME_MAX = 25;
export const LABEL_DESCRIPTION_MAX = 500;
/** Hex colour, `#rgb`, `#rrggbb` or `#rrggbbaa` (the API caps the string at 9 characters). */
export const LABEL_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export const ROUTINE_NAME_MAX = 255;

/** At most this many entries in one bulk credit-limit PATCH (gaps.md). */
export const CREDIT_LIMIT_BATCH_MAX = 1000;

/** A pragmatic e-mail check: one `@`, no spaces, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
