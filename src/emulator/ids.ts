// Identifiers of the emulator: stable ones derived from names (so a seed yields the same ids on
// every start and reset), fresh ones for objects created over the API, and token digests (so
// state never holds a token itself).
import { createHash, randomUUID } from 'node:crypto';

/** A UUID (version-5 layout) derived from `name`: the same name always gives the same id. */
export function stableUuid(name: string): string {
  const hex = createHash('sha1').update(`steward-emulator:${name}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A new random UUID for an object created over the API. */
export function newUuid(): string {
  return randomUUID();
}

/** The SHA-256 hex digest of an API token: what state stores and compares instead of the token. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
