// Finds the files of a configuration (one file, or every *.yaml/*.yml of a directory, sorted),
// parses each with source positions, and reports YAML syntax errors and duplicate keys.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Document } from 'yaml';
import { decodeConfigFile } from './bytes.js';
import { readFast } from './fastYaml.js';
import { locateInDocument, positionAt, TextLines, type PositionedDocument } from './positions.js';
import {
  checkAliasExpansion,
  checkDirectives,
  checkKeys,
  checkMergeKeys,
  checkNesting,
  checkNumbers,
  checkTags,
  forEachInOrder,
  findStarValues,
  pathsAt,
  starValueDiagnostic,
} from './structure.js';
import { syntaxDiagnostics } from './syntax.js';
import type { ConfigPath, Diagnostic } from './types.js';
import { yaml } from './yamlLibrary.js';

/** One file of a configuration, parsed. */
export interface ConfigSource extends PositionedDocument {
  /** Absolute path. */
  path: string;
  /** Path relative to the configuration's directory; messages and the digest use it. */
  name: string;
  text: string;
  doc: Document;
  /** The file's content as plain data (undefined for an empty file). */
  value: unknown;
  /** The YAML had errors, so `value` may be incomplete. */
  broken: boolean;
  /**
   * Values a check of the YAML itself reported (an inexact number, an unsupported tag): `value`
   * is complete, but later checks leave these paths alone, so each mistake is reported once and
   * the rest of the file is still checked.
   */
  tainted?: ConfigPath[];
  /**
   * Set when the fast path (fastYaml.ts) read the file, which it does only when the checks of the
   * YAML find nothing: `keys` names every key (checks for a few names skip their walk), and
   * `verbatim` says interpolation and the character check could change or find nothing.
   */
  fast?: { keys: ReadonlySet<string>; verbatim: boolean };
}

export interface ConfigSources {
  /** Directory the configuration lives in. */
  root: string;
  files: ConfigSource[];
  /** File-system and YAML findings (syntax errors, duplicate keys). */
  diagnostics: Diagnostic[];
  /** sha256 (hex) over the files' relative names and contents, in merge order. */
  digest: string;
}

const CONFIG_FILE = /\.ya?ml$/i;

/** Reads and parses every file of the configuration at `path`; never throws for bad input. */
export async function readConfigSources(path: string, cwd: string): Promise<ConfigSources> {
  const absolute = resolve(cwd, path);
  const diagnostics: Diagnostic[] = [];
  let paths: string[];
  let root: string;
  try {
    const info = await stat(absolute);
    if (info.isDirectory()) {
      root = absolute;
      const entries = await readdir(absolute, { withFileTypes: true });
      const candidates = entries.filter((entry) => CONFIG_FILE.test(entry.name)).map((entry) => join(absolute, entry.name));
      const files: string[] = [];
      for (const candidate of candidates) {
        try {
          if ((await stat(candidate)).isFile()) files.push(candidate);
        } catch (error) {
          diagnostics.push(await fileSystemDiagnostic(error, candidate, displayPath(candidate, cwd)));
        }
      }
      paths = files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (paths.length === 0) {
        diagnostics.push({
          severity: 'error',
          code: 'config.empty',
          summary: `\`${displayPath(absolute, cwd)}\` holds no *.yaml or *.yml files`,
          hint: 'a configuration is a steward.yaml file or a directory of *.yaml files',
        });
      }
    } else {
      root = dirname(absolute);
      paths = [absolute];
    }
  } catch (error) {
    diagnostics.push(await fileSystemDiagnostic(error, absolute, displayPath(absolute, cwd)));
    return { root: absolute, files: [], diagnostics, digest: digestOf([]) };
  }

  const files: ConfigSource[] = [];
  for (const filePath of paths) {
    let bytes: Buffer;
    try {
      bytes = await readFile(filePath);
    } catch (error) {
      diagnostics.push(await fileSystemDiagnostic(error, filePath, displayPath(filePath, cwd)));
      continue;
    }
    const shown = displayPath(filePath, cwd);
    const decoded = decodeConfigFile(bytes, shown);
    diagnostics.push(...decoded.diagnostics);
    if (!decoded.ok) continue;
    const source = parseSource(decoded.text, filePath, relative(root, filePath).split(sep).join('/') || basename(filePath), shown);
    // A file with forbidden characters is not read further: its values would carry them, and
    // what YAML makes of a line holding one (a lone carriage return ends a line) only confuses.
    const marked = new Set(decoded.diagnostics.map((diagnostic) => diagnostic.location?.line));
    if (decoded.diagnostics.length > 0) source.source.broken = true;
    files.push(source.source);
    diagnostics.push(...source.diagnostics.filter((diagnostic) => !marked.has(diagnostic.location?.line)));
  }
  return { root, files, diagnostics, digest: digestOf(files) };
}

/**
 * Merge keys (`<<: *defaults`) are supported. logLevel 'error' keeps the library from printing
 * warnings to stderr (they are diagnostics here) while still reporting several documents.
 */
const PARSE_OPTIONS = { uniqueKeys: false, prettyErrors: false, merge: true, logLevel: 'error' } as const;

/** Parses one file's text; `name` is its name relative to the configuration, `file` its display path. */
export function parseSource(text: string, path: string, name: string, file: string): { source: ConfigSource; diagnostics: Diagnostic[] } {
  // Most files, and large ones, hold nothing the checks below report: the fast path reads them
  // without the library.
  const fast = readFast(text);
  if (fast !== undefined) {
    let doc: Document | undefined;
    const source: ConfigSource = {
      path,
      name,
      file,
      text,
      // The library's Document of the same text, built when a finding needs a position in it.
      get doc() {
        doc ??= yaml().parseDocument(text, PARSE_OPTIONS);
        return doc;
      },
      lineCounter: new TextLines(text),
      value: fast.value,
      broken: false,
      fast: { keys: fast.keys, verbatim: fast.verbatim },
    };
    return { source, diagnostics: [] };
  }
  return parseWithLibrary(text, path, name, file);
}

/** Parses one file's text with the yaml library, with every check of the YAML itself (the path for any file the fast path declines). */
export function parseWithLibrary(text: string, path: string, name: string, file: string): { source: ConfigSource; diagnostics: Diagnostic[] } {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...PARSE_OPTIONS, lineCounter });
  const source: ConfigSource = { path, name, file, text, doc, lineCounter, value: undefined, broken: doc.errors.length > 0 };
  // Nesting is checked first: every other check below walks the document.
  const tooDeep = checkNesting(source);
  if (tooDeep !== undefined) {
    source.broken = true;
    return { source, diagnostics: [tooDeep] };
  }
  // `schedule: * 9 ? * MON *` is one mistake, not the alias errors YAML reports on that line.
  const stars = findStarValues(text);
  const starLines = new Set(stars.map((star) => star.line));
  const diagnostics: Diagnostic[] = [...stars.map((star) => starValueDiagnostic(file, star))];
  diagnostics.push(
    ...[...syntaxDiagnostics(source), ...unresolvedAliases(source)].filter(
      (diagnostic) => (diagnostic.location === undefined || !starLines.has(diagnostic.location.line)) && !/^unresolved tag/i.test(diagnostic.summary),
    ),
  );
  diagnostics.push(...duplicateKeys(source), ...checkKeys(source), ...checkMergeKeys(source), ...checkDirectives(source));
  const expansion = checkAliasExpansion(source);
  if (expansion !== undefined) diagnostics.push(expansion);
  if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) source.broken = true;
  // An inexact number or an unsupported tag spoils its own value only: the file is still checked
  // around it (the paths are found only when there is one, sparing the walk).
  const reported: number[] = [];
  diagnostics.push(...checkNumbers(source, reported), ...checkTags(source, reported));
  if (reported.length > 0 && !source.broken) source.tainted = pathsAt(doc, new Set(reported));
  if (expansion !== undefined) return { source, diagnostics };
  try {
    source.value = doc.toJS({ maxAliasCount: -1 }) as unknown;
  } catch (error) {
    source.broken = true;
    if (!diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
      diagnostics.push({ severity: 'error', code: 'yaml.syntax', summary: (error as Error).message, location: locateInDocument(source, []) });
    }
  }
  return { source, diagnostics };
}

/** `a:` twice in one map is an error naming both places (YAML would silently keep the last). */
function duplicateKeys(source: ConfigSource): Diagnostic[] {
  const { isMap, isScalar } = yaml();
  const diagnostics: Diagnostic[] = [];
  forEachInOrder(source.doc, (map) => {
    if (!isMap(map)) return;
    const seen = new Map<string, number>();
    for (const pair of map.items) {
      if (!isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) continue;
      const key = String(pair.key.value);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, pair.key.range[0]);
        continue;
      }
      const firstAt = positionAt(source, first);
      diagnostics.push({
        severity: 'error',
        code: 'yaml.duplicateKey',
        summary: `\`${key}\` is declared twice in the same map; the first is at ${source.name}:${firstAt.line}:${firstAt.col}`,
        hint: 'remove or merge one of the two',
        location: positionAt(source, pair.key.range[0]),
      });
    }
  });
  return diagnostics;
}

function unresolvedAliases(source: ConfigSource): Diagnostic[] {
  const { isAlias } = yaml();
  const diagnostics: Diagnostic[] = [];
  forEachInOrder(source.doc, (alias) => {
    // An empty alias (a lone `*`) is a syntax error already.
    if (!isAlias(alias) || alias.source === '' || alias.resolve(source.doc) !== undefined || alias.range === undefined || alias.range === null) return;
    diagnostics.push({
      severity: 'error',
      code: 'yaml.syntax',
      summary: `alias \`*${alias.source}\` refers to no anchor \`&${alias.source}\` declared before it`,
      hint: /^[A-Za-z_][\w-]*$/.test(alias.source)
        ? `mark the value to repeat with \`&${alias.source}\` above this line`
        : 'YAML reads a value that starts with `*` as an alias: quote it if it is text, such as a cron schedule',
      location: positionAt(source, alias.range[0]),
    });
  });
  return diagnostics;
}

async function fileSystemDiagnostic(error: unknown, absolute: string, shown: string): Promise<Diagnostic> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') {
    const link = await danglingLink(absolute);
    if (link !== undefined) {
      return {
        severity: 'error',
        code: 'config.danglingLink',
        summary: `\`${shown}\` is a symbolic link to \`${link}\`, which ${code === 'ELOOP' ? 'leads back to itself' : 'does not exist'}`,
        hint: 'point the link at an existing file, or remove it',
      };
    }
    return {
      severity: 'error',
      code: 'config.notFound',
      summary: `\`${shown}\` does not exist`,
      hint: 'pass a steward.yaml file or a directory of *.yaml files',
    };
  }
  const reason = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'unknown error');
  return { severity: 'error', code: 'config.unreadable', summary: `cannot read \`${shown}\`: ${reason}` };
}

/** The target of `path` when it is a symbolic link that cannot be followed. */
async function danglingLink(path: string): Promise<string | undefined> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return undefined;
    return await readlink(path);
  } catch {
    return undefined;
  }
}

/** A path as diagnostics show it: relative to the working directory when inside it. */
export function displayPath(absolute: string, cwd: string): string {
  const relativePath = relative(cwd, absolute);
  if (relativePath === '') return '.';
  if (relativePath.startsWith('..') || isAbsolute(relativePath)) return absolute;
  return relativePath.split(sep).join('/');
}

function digestOf(files: readonly ConfigSource[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file.name}\n${Buffer.byteLength(file.text)}\n`);
    hash.update(file.text);
    hash.update('\n');
  }
  return hash.digest('hex');
}

/** True when `value` is a YAML map parsed to a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

