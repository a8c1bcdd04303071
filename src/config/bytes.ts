// The bytes of a configuration file, checked before YAML sees them: the file must be UTF-8 (a
// byte-order mark is fine) and hold no control or invisible formatting characters, because
// those would reach the server as part of a name or move the cursor when a message prints them.
// Findings point at the exact character and never echo the offending bytes.
import type { Diagnostic, SourceLocation } from './types.js';

/** Files larger than this are refused before parsing (a configuration is text written by people). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** At most this many character findings per file; the rest say the same thing. */
const MAX_CHARACTER_FINDINGS = 10;

export type DecodedFile = { ok: true; text: string; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Decodes a configuration file. `ok: false` when the text cannot be trusted at all (not UTF-8,
 * too large); `ok: true` with error diagnostics when it decodes but holds forbidden characters.
 */
export function decodeConfigFile(bytes: Uint8Array, file: string): DecodedFile {
  const at = (line: number, col: number): SourceLocation => ({ file, line, col });
  if (bytes.length > MAX_FILE_BYTES) {
    return {
      ok: false,
      diagnostics: [
        {
          severity: 'error',
          code: 'config.tooLarge',
          summary: `the file is ${formatMiB(bytes.length)}; configuration files are at most ${formatMiB(MAX_FILE_BYTES)}`,
          hint: 'split the configuration into several files in one directory',
          location: at(1, 1),
        },
      ],
    };
  }
  const utf16 = utf16Order(bytes);
  if (utf16 !== undefined) {
    return {
      ok: false,
      diagnostics: [
        {
          severity: 'error',
          code: 'encoding.utf16',
          summary: `the file is encoded as UTF-16 (${utf16}); configuration files must be UTF-8`,
          hint: 'save the file as UTF-8 in your editor (a byte-order mark is fine)',
          location: at(1, 1),
        },
      ],
    };
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const offset = firstInvalidUtf8(body);
    const prefix = new TextDecoder('utf-8').decode(body.subarray(0, offset));
    const { line, col } = lineAndColumn(prefix, prefix.length);
    const byte = body[offset] ?? 0;
    return {
      ok: false,
      diagnostics: [
        {
          severity: 'error',
          code: 'encoding.notUtf8',
          summary: `the file is not valid UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} cannot start or continue a character here`,
          hint:
            byte >= 0xa0 && byte <= 0xff
              ? 'the file looks like Latin-1 or Windows-1252 text: save it as UTF-8 in your editor'
              : 'configuration files are UTF-8 text: is this the right file, and saved as UTF-8?',
          location: at(line, col),
        },
      ],
    };
  }
  return { ok: true, text, diagnostics: forbiddenCharacters(text, file) };
}

/** The name of a character that must not appear in a configuration, or undefined when it may. */
export function forbiddenCharacterName(code: number): string | undefined {
  if (code === 0x09 || code === 0x0a || code === 0x0d) return undefined;
  if (code < 0x20) return `control character ${codePoint(code)}${C0_NAMES[code] === undefined ? '' : ` (${C0_NAMES[code]})`}`;
  if (code === 0x7f) return `control character ${codePoint(code)} (DEL)`;
  if (code >= 0x80 && code <= 0x9f) return `control character ${codePoint(code)}`;
  const invisible = INVISIBLE[code];
  if (invisible !== undefined) return `invisible character ${codePoint(code)} (${invisible})`;
  return undefined;
}

/** U+001B */
export function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

const C0_NAMES: Record<number, string> = { 0: 'NUL', 7: 'BEL', 8: 'backspace', 0x0b: 'vertical tab', 0x0c: 'form feed', 0x1b: 'ESC' };

// Characters that change how text is laid out or read without being visible: bidirectional
// overrides (which can make a name read differently from what it is), zero-width characters,
// and the Unicode line separators that break line numbers.
const INVISIBLE: Record<number, string> = {
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'byte-order mark inside the text',
};

/**
 * Every character forbiddenCharacterName names, and tab, line feed and carriage return: a text
 * without any of them needs no closer look (one regular expression instead of a call per character).
 */
const INVISIBLE_CLASS = Object.keys(INVISIBLE)
  .map((code) => `\\u${Number(code).toString(16).padStart(4, '0')}`)
  .join('');
const NOTABLE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE_CLASS}]`);
/** What forbiddenCharacterName names, carriage return aside (which a CRLF line end may hold). */
const FORBIDDEN = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${INVISIBLE_CLASS}]`);

/** Whether `text` holds a control, invisible or line-breaking character (see forbiddenCharacterName). */
export function holdsNotableCharacter(text: string): boolean {
  return NOTABLE.test(text);
}

/** Whether `text` holds a character forbiddenCharacters reports (a carriage return only without its line feed). */
export function holdsForbiddenCharacter(text: string): boolean {
  return FORBIDDEN.test(text) || LONE_CARRIAGE_RETURN.test(text);
}

const LONE_CARRIAGE_RETURN = /\r(?!\n)/;

function forbiddenCharacters(text: string, file: string): Diagnostic[] {
  // Most files hold none: one regular expression over the text instead of a look at each character.
  if (!text.includes('\r') && !FORBIDDEN.test(text)) return [];
  const diagnostics: Diagnostic[] = [];
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x0a) {
      line++;
      lineStart = index + 1;
      continue;
    }
    // A carriage return belongs to a CRLF line end; alone it is a control character.
    if (code === 0x0d && text.charCodeAt(index + 1) === 0x0a) continue;
    const name = code === 0x0d ? 'control character U+000D (carriage return without a line feed)' : forbiddenCharacterName(code);
    if (name === undefined) continue;
    if (diagnostics.length === MAX_CHARACTER_FINDINGS) {
      diagnostics.push({
        severity: 'error',
        code: 'encoding.controlCharacter',
        summary: 'the file holds more forbidden characters; only the first ten are listed',
        location: { file, line, col: index - lineStart + 1 },
      });
      break;
    }
    diagnostics.push({
      severity: 'error',
      code: 'encoding.controlCharacter',
      summary: `the file holds ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`,
      hint: 'remove it: configuration files hold printable text, tabs and line breaks only',
      location: { file, line, col: index - lineStart + 1 },
    });
  }
  return diagnostics;
}

/** 'little-endian' or 'big-endian' when the bytes are UTF-16 (by byte-order mark or NUL pattern). */
function utf16Order(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'little-endian';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'big-endian';
  // Without a mark: ASCII text in UTF-16 has a NUL in every other byte.
  const sample = bytes.subarray(0, Math.min(bytes.length, 512));
  if (sample.length < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let index = 0; index + 1 < sample.length; index += 2) {
    if (sample[index] === 0) evenNul++;
    if (sample[index + 1] === 0) oddNul++;
  }
  const pairs = Math.floor(sample.length / 2);
  if (oddNul >= pairs * 0.6 && evenNul === 0) return 'little-endian';
  if (evenNul >= pairs * 0.6 && oddNul === 0) return 'big-endian';
  return undefined;
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    let length: number;
    let min: number;
    if (byte < 0x80) {
      index++;
      continue;
    } else if (byte >= 0xc2 && byte <= 0xdf) [length, min] = [2, 0x80];
    else if (byte >= 0xe0 && byte <= 0xef) [length, min] = [3, 0x800];
    else if (byte >= 0xf0 && byte <= 0xf4) [length, min] = [4, 0x10000];
    else return index;
    let value = byte & (0xff >> (length + 1));
    for (let next = 1; next < length; next++) {
      const continuation = bytes[index + next];
      if (continuation === undefined || (continuation & 0xc0) !== 0x80) return index;
      value = (value << 6) | (continuation & 0x3f);
    }
    if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return index;
    index += length;
  }
  return index;
}

function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset; index++) {
    if (text.charCodeAt(index) === 0x0a) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
