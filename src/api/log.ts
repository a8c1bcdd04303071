// The request log behind `--debug` and the redaction every outward string goes through, so the
// API token never reaches a terminal, a CI log or an error report, whatever the server echoes.

export const REDACTED = '[REDACTED]';

/** Removes one secret (and its encoded forms) plus any bearer credential from text. */
export class Redactor {
  // A private field, so inspecting any object that holds a Redactor never shows the secret.
  readonly #secrets: string[];

  constructor(secret: string) {
    const forms = new Set<string>([secret]);
    forms.add(encodeURIComponent(secret));
    forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(Buffer.from(secret, 'utf8').toString('base64'));
    forms.add(Buffer.from(secret, 'utf8').toString('base64url'));
    // Longest first, so a form containing another is replaced whole.
    this.#secrets = [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
  }

  /** Returns the text with every form of the secret and every `Bearer …` value replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    return out.replace(/(Bearer\s+)(?!\[REDACTED\])\S+/gi, `$1${REDACTED}`);
  }
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
