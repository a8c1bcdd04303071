// The request log behind `--debug` and the redaction every outward string goes through, so the
// API token never reaches a terminal, a CI log or an error report, whatever the server echoes.

export const REDACTED = '[REDACTED]';

/**
 * Removes one secret (and its encoded forms) plus any bearer credential from text. The forms:
 * the secret itself in any letter case (so its hex form in either case too), URL- and
 * JSON-escaped, and base64 / base64url of the secret and of `Bearer <secret>` and the basic-auth
 * pairs, at each of the three alignments a base64 stream can give it (a server may encode a
 * whole header or body that contains it).
 */
export class Redactor {
  // A private field, so inspecting any object that holds a Redactor never shows the secret.
  readonly #pattern: RegExp | undefined;

  constructor(secret: string) {
    const forms = new Set<string>([secret]);
    forms.add(encodeURIComponent(secret));
    forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
    forms.add(JSON.stringify(secret).slice(1, -1));
    const bytes = Buffer.from(secret, 'utf8');
    forms.add(bytes.toString('hex'));
    for (const wrapped of [secret, `Bearer ${secret}`, `${secret}:`, `:${secret}`]) {
      const data = Buffer.from(wrapped, 'utf8');
      forms.add(data.toString('base64'));
      forms.add(data.toString('base64').replace(/=+$/, ''));
      forms.add(data.toString('base64url'));
    }
    // Inside a longer base64 stream the secret starts at byte offset 0, 1 or 2 of a 3-byte
    // group; the characters that depend on its bytes alone are the same whatever surrounds it.
    if (bytes.length >= 6) {
      for (const shift of [0, 1, 2]) {
        const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
        const core = encoded.slice(shift === 0 ? 0 : 4, Math.floor((shift + bytes.length) / 3) * 4);
        if (core.length >= 8) {
          forms.add(core);
          forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
        }
      }
    }
    // Longest first, so a form containing another is replaced whole.
    const sorted = [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
    this.#pattern = sorted.length === 0 ? undefined : new RegExp(sorted.map(escapeRegExp).join('|'), 'gi');
  }

  /**
   * Returns a message with every form of the secret and every `Bearer …` value replaced: for
   * what the server or the network says (error details, the request log), where a credential of
   * any kind is noise at best.
   */
  redact(text: string): string {
    return this.redactSecret(text).replace(/(Bearer\s+)(?!\[REDACTED\])\S+/gi, `$1${REDACTED}`);
  }

  /**
   * Returns the text with every form of the secret replaced, and nothing else: for whole outputs
   * (a plan, an export), which show live data. A label described as "Bearer bonds desk" is data,
   * and masking its second word would show a change that is none, and write the mask back.
   */
  redactSecret(text: string): string {
    return this.#pattern === undefined ? text : text.replace(this.#pattern, REDACTED);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One attempt of one request, as the request log shows it. */
export interface AttemptRecord {
  method: string;
  /** Path and query as sent (redacted before printing). */
  path: string;
  /** HTTP status, or the network error code when no response came back. */
  outcome: number | string;
  durationMs: number;
  /** 0 for the first attempt, n for the n-th retry. */
  retry: number;
  /** Time spent waiting for a pacing slot before this attempt. */
  pacedMs: number;
}

/** Formats an attempt as one log line: method, path, status, duration, retry count. */
export function formatAttempt(record: AttemptRecord): string {
  const paced = record.pacedMs >= 1 ? ` paced=${Math.round(record.pacedMs)}ms` : '';
  return `${record.method} ${record.path} ${record.outcome} ${Math.round(record.durationMs)}ms retry=${record.retry}${paced}`;
}

/** Formats the decision to retry: which request, after what, and how long the wait is. */
export function formatRetryWait(method: string, path: string, reason: string, delayMs: number, retry: number): string {
  return `${method} ${path} retrying (${reason}) in ${Math.round(delayMs)}ms, retry ${retry}`;
}

/** A log sink that redacts every line before handing it on; a no-op without a sink. */
export function redactingLog(
  sink: ((line: string) => void) | undefined,
  redactor: Redactor,
): (line: string) => void {
  if (sink === undefined) return () => undefined;
  return (line) => sink(redactor.redact(line));
}
