// Variables in configuration values: `${var.NAME}` (the selected environment's variables) and
// `${env.NAME}` (process environment); `$${` is a literal `${`. A value that is exactly one
// reference takes the referenced value's type, so `${var.limit}` can be a number.
import { formatPath, pathKey } from './positions.js';
import { didYouMean } from './suggest.js';
import type { ConfigPath } from './types.js';

export type VariableValue = string | number | boolean | null;

export interface Reference {
  namespace: 'var' | 'env';
  name: string;
  /** The reference as written, e.g. `${var.salesModelId}`. */
  text: string;
}

/** One piece of a string value: literal text, a reference, or a malformed reference. */
export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'reference'; reference: Reference }
  | { kind: 'malformed'; text: string; unterminated: boolean };

export interface InterpolationScope {
  /** The selected environment; absent when none can be selected (variable references are then left as written). */
  environment?: { name: string; variables: Readonly<Record<string, VariableValue>> };
  processEnv: Readonly<Record<string, string | undefined>>;
  /** Process variables that hold API tokens (name → environment); referencing one is an error. */
  tokenVariables?: ReadonlyMap<string, string>;
}

/** A reference that could not be resolved, at the value that contains it. */
export interface ReferenceProblem {
  path: ConfigPath;
  /** The reference as written, to find its exact column. */
  text: string;
  code: string;
  summary: string;
  hint?: string;
}

export interface Interpolation {
  value: unknown;
  problems: ReferenceProblem[];
  /** Values that came from references (key: pathKey), with the references they contain. */
  substituted: Map<string, { path: ConfigPath; references: Reference[] }>;
  /** Values left as written because a reference in them could not be resolved (key: pathKey). */
  unresolved: Set<string>;
}

const REFERENCE_BODY = /^(var|env)\.([A-Za-z_][A-Za-z0-9_]*)$/;

/** The interpolation of a value known to hold no `$` anywhere: the value itself, nothing substituted. */
export function asWritten(value: unknown): Interpolation {
  return { value, problems: [], substituted: new Map(), unresolved: new Set() };
}

/** Splits a string into literal text and references; `$${` becomes a literal `${`. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') parts.push({ kind: 'text', text: literal });
    literal = '';
  };
  let index = 0;
  while (index < text.length) {
    if (text.startsWith('$${', index)) {
      literal += '${';
      index += 3;
    } else if (text.startsWith('${', index)) {
      flush();
      const end = text.indexOf('}', index + 2);
      if (end < 0) {
        parts.push({ kind: 'malformed', text: text.slice(index), unterminated: true });
        return parts;
      }
      const written = text.slice(index, end + 1);
      const match = REFERENCE_BODY.exec(text.slice(index + 2, end));
      parts.push(
        match === null
          ? { kind: 'malformed', text: written, unterminated: false }
          : { kind: 'reference', reference: { namespace: match[1] as 'var' | 'env', name: match[2]!, text: written } },
      );
      index = end + 1;
    } else {
      literal += text[index];
      index += 1;
    }
  }
  flush();
  return parts;
}

/** True when `text` holds a `${` that is not the literal `$${`: a reference, well formed or not. */
export function holdsReference(text: string): boolean {
  return text.includes('${') && parseTemplate(text).some((part) => part.kind !== 'text');
}

/**
 * Policies are not interpolated: they are the same rules in every environment (an environment
 * sets its own under `environments.NAME.policies`), and a guard that a process variable could
 * loosen would be no guard. The schema reports a reference written there.
 */
export function isPolicyPath(path: ConfigPath): boolean {
  return (path.length === 1 && path[0] === 'policies') || (path.length === 3 && path[0] === 'environments' && path[2] === 'policies');
}

/**
 * Resolves every reference in `value` (strings at any depth; keys are never interpolated),
 * except under `policies` (see isPolicyPath), which is kept as written.
 * Pure: returns a new value; problems carry the path of the value that contains them.
 * With `variablesAllowed: false` (inside `environments`), `${var.…}` is an error.
 */
export function interpolate(
  value: unknown,
  scope: InterpolationScope,
  options: { basePath?: ConfigPath; variablesAllowed?: boolean } = {},
): Interpolation {
  const result: Interpolation = { value: undefined, problems: [], substituted: new Map(), unresolved: new Set() };
  const variablesAllowed = options.variablesAllowed ?? true;

  const walk = (node: unknown, path: ConfigPath): unknown => {
    if (isPolicyPath(path)) return node;
    if (typeof node === 'string') return resolveString(node, path);
    if (Array.isArray(node)) return node.map((item, index) => child(item, path, index));
    if (node !== null && typeof node === 'object') {
      // fromEntries defines each key as its own: `copy[key] =` would make `__proto__` the prototype.
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, child(value, path, key)]));
    }
    return node;
  };
  // Most values are text without `$` or numbers: they are kept as they are, with no path built.
  const child = (node: unknown, path: ConfigPath, step: string | number): unknown =>
    (typeof node === 'string' && !node.includes('$')) || node === null || (typeof node !== 'string' && typeof node !== 'object') ? node : walk(node, [...path, step]);

  const resolveString = (text: string, path: ConfigPath): unknown => {
    if (!text.includes('$')) return text;
    const parts = parseTemplate(text);
    const references: Reference[] = [];
    const pieces: VariableValue[] = [];
    let failed = false;
    const fail = (problem: Omit<ReferenceProblem, 'path'>) => {
      failed = true;
      result.problems.push({ path, ...problem });
    };
    for (const part of parts) {
      if (part.kind === 'text') {
        pieces.push(part.text);
      } else if (part.kind === 'malformed') {
        fail({
          text: part.text,
          code: 'reference.syntax',
          summary: part.unterminated ? `\`${part.text}\` is missing its closing \`}\`` : `\`${part.text}\` is not a valid reference`,
          hint: 'write `${var.NAME}` or `${env.NAME}`; `$${` stands for a literal `${`',
        });
      } else {
        references.push(part.reference);
        const outcome = resolveReference(part.reference, scope, variablesAllowed);
        if (outcome.kind === 'deferred') failed = true;
        else if (outcome.kind === 'problem') fail({ text: part.reference.text, ...outcome.problem });
        else if (outcome.value === null && parts.length > 1) {
          fail({
            text: part.reference.text,
            code: 'reference.null',
            summary: `\`${part.reference.text}\` is null, which cannot be part of a text`,
            hint: 'use the reference as the whole value, or give the variable a text value',
          });
        } else pieces.push(outcome.value);
      }
    }
    if (failed) {
      result.unresolved.add(pathKey(path));
      return text;
    }
    if (references.length > 0) result.substituted.set(pathKey(path), { path, references });
    if (parts.length === 1 && parts[0]!.kind === 'reference') return pieces[0];
    return pieces.map((piece) => String(piece)).join('');
  };

  result.value = walk(value, options.basePath ?? []);
  return result;
}

type Outcome =
  | { kind: 'value'; value: VariableValue }
  | { kind: 'problem'; problem: Omit<ReferenceProblem, 'path' | 'text'> }
  | { kind: 'deferred' };

function resolveReference(reference: Reference, scope: InterpolationScope, variablesAllowed: boolean): Outcome {
  if (reference.namespace === 'env') {
    const environment = scope.tokenVariables?.get(reference.name);
    if (environment !== undefined) {
      return {
        kind: 'problem',
        problem: {
          code: 'reference.secret',
          summary: `\`${reference.text}\` is the API token of environment \`${environment}\`; a token never goes into a configuration value`,
        },
      };
    }
    const value = scope.processEnv[reference.name];
    if (value === undefined) {
      return {
        kind: 'problem',
        problem: {
          code: 'reference.undefined',
          summary: `environment variable \`${reference.name}\` is not set`,
          hint: 'set it before running steward, or write `$${` for a literal `${`',
        },
      };
    }
    return { kind: 'value', value };
  }
  if (!variablesAllowed) {
    return {
      kind: 'problem',
      problem: {
        code: 'reference.scope',
        summary: `\`${reference.text}\` cannot be used inside \`environments\`, where variables are defined`,
        hint: 'use `${env.NAME}` to read a process environment variable here',
      },
    };
  }
  if (scope.environment === undefined) return { kind: 'deferred' };
  const { name, variables } = scope.environment;
  if (!Object.prototype.hasOwnProperty.call(variables, reference.name)) {
    return {
      kind: 'problem',
      problem: {
        code: 'reference.undefined',
        summary: `variable \`${reference.name}\` is not defined in environment \`${name}\``,
        hint:
          didYouMean(reference.name, Object.keys(variables)) ??
          `declare it under \`${formatPath(['environments', name, 'variables'])}\``,
      },
    };
  }
  return { kind: 'value', value: variables[reference.name] as VariableValue };
}
