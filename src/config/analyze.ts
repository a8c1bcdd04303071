// The validation pipeline behind loadConfig and `steward validate`: read and parse the files,
// check each against the schema, merge, select the environment(s), interpolate, re-check the
// interpolated values, run the semantic checks (each kind's, handed in, among them), and return
// every finding in source order, with the selected environment's configuration as it is loaded.
import { collectHiddenValues, hideValues, type HiddenValues } from './hiddenValues.js';
import { asWritten, interpolate, type Interpolation, type Reference, type VariableValue } from './interpolate.js';
import { locateMerged, describeLocation, mergeSources, type MergedConfig } from './merge.js';
import { checkYamlPitfalls } from './pitfalls.js';
import { locateInDocument, pathKey, positionAt, rangeOf } from './positions.js';
import { checkSchema, describeValue, findingMessage } from './schema.js';
import { checkSecrets, ENV_VAR_NAME } from './secrets.js';
import { checkSemantics } from './semantic.js';
import { isRecord, readConfigSources, type ConfigSource } from './sources.js';
import { selectEnvironment } from './environments.js';
import type { KindConfigSchema } from './assembleSchema.js';
import { kindRules, type KindRules } from './kindRules.js';
import type { ConfigPath, Diagnostic, SourceLocation } from './types.js';

export interface AnalyzeOptions {
  /** The environment to select (`--env`). */
  environment?: string;
  processEnv?: Record<string, string | undefined>;
  /** Several environments and none requested is an error (true for commands that talk to one). */
  selectionRequired: boolean;
  /** Directory that relative paths and displayed file names are relative to. */
  cwd?: string;
}

export interface ConfigAnalysis {
  /** Every finding, errors and warnings, ordered by file, line and column. */
  diagnostics: Diagnostic[];
  files: ConfigSource[];
  digest: string;
  /** Declared environment names. */
  environments: string[];
  /** Environments the references were checked against. */
  checked: string[];
  /**
   * The selected environment with its interpolated configuration, when one was selected, and the
   * `${var.NAME}` references each value came from (outside `environments`).
   */
  selected?: { name: string; config: Record<string, unknown>; variableReferences: { path: ConfigPath; variables: string[] }[] };
  merged?: MergedConfig;
}

/**
 * Runs every check on the configuration at `path`, the kinds' among them, and loads it as their
 * `declarations` say (config/ imports no kind: app/config.ts hands in every kind's, those of
 * kinds/configRegistry.ts); never throws for bad input.
 */
export async function analyzeConfig(path: string, declarations: readonly KindConfigSchema[], options: AnalyzeOptions): Promise<ConfigAnalysis> {
  const rules = kindRules(declarations);
  const cwd = options.cwd ?? process.cwd();
  const processEnv = options.processEnv ?? process.env;
  const sources = await readConfigSources(path, cwd);
  const diagnostics = [...sources.diagnostics];
  const analysis: ConfigAnalysis = { diagnostics, files: sources.files, digest: sources.digest, environments: [], checked: [] };

  const structural = new Map<ConfigSource, ConfigPath[]>();
  for (const source of sources.files) {
    diagnostics.push(...checkSecrets(source), ...checkYamlPitfalls(source));
    if (source.broken) continue;
    if (source.value === null || source.value === undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'config.emptyFile',
        summary: 'the file is empty',
        hint: 'every configuration file declares at least `version: 1`',
        location: locateInDocument(source, []),
      });
      continue;
    }
    const tainted = source.tainted ?? [];
    // A value the YAML checks reported is not reported again, nor anything inside it.
    const findings = checkSchema(source.value).filter((finding) => !tainted.some((path) => startsWith(finding.path, path)));
    structural.set(source, findings.map((finding) => finding.path));
    for (const finding of findings) {
      diagnostics.push({
        severity: 'error',
        code: finding.code,
        summary: findingMessage(finding),
        ...(finding.hint === undefined ? {} : { hint: finding.hint }),
        location: locateInDocument(source, finding.path, finding.target),
      });
    }
  }
  if (sources.files.length === 0 || sources.files.some((source) => source.broken || !isRecord(source.value))) return finish(analysis);

  const merged = mergeSources(sources.files);
  analysis.merged = merged;
  diagnostics.push(...merged.diagnostics);
  const locate = (target: ConfigPath, at?: 'value' | 'key') => locateMerged(merged, target, at);

  const rawEnvironments = isRecord(merged.value.environments) ? merged.value.environments : {};
  analysis.environments = Object.keys(rawEnvironments);
  const environmentsMistyped = [...structural.values()].some((paths) => paths.some((path) => path.length === 1 && path[0] === 'environments'));
  if (analysis.environments.length === 0 && !environmentsMistyped) {
    diagnostics.push({
      severity: 'error',
      code: 'environments.missing',
      summary: 'no environment is declared',
      hint: 'declare at least one under `environments`, with its `baseUrl` and `tokenEnv`',
      ...withLocation(locate(['environments'], 'key')),
    });
  }
  const selection = selectEnvironment(analysis.environments, options.environment, options.selectionRequired);
  diagnostics.push(...selection.diagnostics);
  analysis.checked = selection.checked;

  // Environments are resolved first (only `${env.…}` there), so variables can come from the process.
  const tokenVariables = new Map<string, string>();
  for (const [name, environment] of Object.entries(rawEnvironments)) {
    if (isRecord(environment) && typeof environment.tokenEnv === 'string' && ENV_VAR_NAME.test(environment.tokenEnv)) tokenVariables.set(environment.tokenEnv, name);
  }
  // When every file was read by the fast path and holds its text values as written, on one line
  // and without a `$` (fastYaml.ts), interpolation changes nothing and no text value holds a
  // character the files' byte check did not already refuse. Both walks of every value are then skipped.
  const verbatim = sources.files.every((source) => source.fast?.verbatim === true);
  const environmentPass = verbatim
    ? asWritten(rawEnvironments)
    : interpolate(rawEnvironments, { processEnv, tokenVariables }, { basePath: ['environments'], variablesAllowed: false });
  diagnostics.push(...referenceDiagnostics(environmentPass, merged));
  const environments = environmentPass.value as Record<string, unknown>;
  const hidden: HiddenValues = new Map();
  collectHiddenValues(hidden, environmentPass, processEnv);

  const sections = Object.fromEntries(Object.entries(merged.value).filter(([key]) => key !== 'environments'));
  for (const name of selection.checked.length > 0 ? selection.checked : [undefined]) {
    const environment = name === undefined ? undefined : environments[name];
    const variables = isRecord(environment) && isRecord(environment.variables) ? (environment.variables as Record<string, VariableValue>) : {};
    const pass = verbatim ? asWritten(sections) : interpolate(sections, { ...(name === undefined ? {} : { environment: { name, variables } }), processEnv, tokenVariables });
    diagnostics.push(...referenceDiagnostics(pass, merged));
    collectHiddenValues(hidden, pass, processEnv, variables);
    // Checks see the values as written (messages quote them); the loaded configuration is normalised.
    const config = { ...merged.value, ...(pass.value as Record<string, unknown>), environments };
    const substituted = new Map([...environmentPass.substituted, ...pass.substituted]);
    const unresolved = new Set([...environmentPass.unresolved, ...pass.unresolved]);
    // A value from a variable the YAML checks reported (`limit: 1e400`) was reported there.
    const fromTainted = new Set(
      [...pass.substituted]
        .filter(([, { references }]) => name !== undefined && references.some((reference) => reference.namespace === 'var' && isTainted(merged, ['environments', name, 'variables', reference.name])))
        .map(([key]) => key),
    );
    // Only findings at substituted values count here; with none substituted there is nothing to
    // check again (the written values were checked per file), which spares a second schema pass.
    for (const finding of substituted.size === 0 ? [] : checkSchema(config, 'resolved')) {
      const origin = substituted.get(pathKey(finding.path));
      if (origin === undefined) continue; // not from a reference: the written value was checked per file
      if (fromTainted.has(pathKey(finding.path))) continue;
      const reference = origin.references[0]!;
      diagnostics.push({
        severity: 'error',
        code: 'reference.type',
        summary: `${finding.subject} ${finding.expectation}, but \`${reference.text}\` ${resolvedDescription(reference, finding.path, config, name)}`,
        ...withLocation(referenceLocation(merged, finding.path, reference.text)),
      });
    }
    diagnostics.push(
      ...checkSemantics(config, rules, {
        verbatimText: verbatim,
        locate,
        describe: (target, at) => describeLocation(merged, target, at),
        skip: (target) => unresolved.size > 0 && unresolved.has(pathKey(target)),
        invalid: (target) => {
          if (fromTainted.size > 0 && fromTainted.has(pathKey(target))) return true;
          const origin = merged.originOf(target);
          if (origin === undefined) return false;
          // A value the YAML checks reported: nothing at it, inside it or about what holds it.
          if ((origin.source.tainted ?? []).some((path) => startsWith(path, origin.path) || startsWith(origin.path, path))) return true;
          return (structural.get(origin.source) ?? []).some((path) => startsWith(path, origin.path));
        },
      }),
    );
    if (name !== undefined && name === selection.selected) {
      const variableReferences = [...pass.substituted.values()].flatMap(({ path, references }) => {
        const variables = references.flatMap((reference) => (reference.namespace === 'var' ? [reference.name] : []));
        return variables.length === 0 ? [] : [{ path, variables }];
      });
      analysis.selected = { name, config: normalize(config, rules.normalize), variableReferences };
    }
  }
  if (!verbatim) diagnostics.push(...sharedCreditControls(environments, sections, { processEnv, tokenVariables }, locate));
  const linesOf = new Map(sources.files.map((source) => [source.file, source.text.split('\n')]));
  analysis.diagnostics = diagnostics.map((diagnostic) =>
    hideValues(diagnostic, hidden, diagnostic.location === undefined ? '' : (linesOf.get(diagnostic.location.file)?.[diagnostic.location.line - 1] ?? '')),
  );
  return finish(analysis);
}

/**
 * Deployments of one account share its AI credit controls (the vendor: they apply to every
 * instance of an organization): declared differently for two of them (a variable that differs by
 * environment), the two would undo each other's writes. One error per account, at the first
 * field that differs, naming both environments and both values. (Written values are the same in
 * every environment; only references can differ, so a configuration without any needs no check.)
 */
function sharedCreditControls(
  environments: Record<string, unknown>,
  sections: Record<string, unknown>,
  context: { processEnv: Record<string, string | undefined>; tokenVariables: Map<string, string> },
  locate: (target: ConfigPath) => SourceLocation | undefined,
): Diagnostic[] {
  if (!isRecord(sections.creditControls)) return [];
  const byAccount = new Map<string, string[]>();
  for (const [name, environment] of Object.entries(environments)) {
    if (isRecord(environment) && typeof environment.account === 'string') byAccount.set(environment.account, [...(byAccount.get(environment.account) ?? []), name]);
  }
  const diagnostics: Diagnostic[] = [];
  for (const [account, names] of byAccount) {
    if (names.length < 2) continue;
    const resolved = names.map((name) => {
      const environment = environments[name];
      const variables = isRecord(environment) && isRecord(environment.variables) ? (environment.variables as Record<string, VariableValue>) : {};
      const pass = interpolate({ creditControls: sections.creditControls }, { environment: { name, variables }, ...context });
      // A value from the process environment is never quoted in a finding.
      const fromProcess = [...pass.substituted.values()].some(({ references }) => references.some((reference) => reference.namespace === 'env'));
      return { name, fromProcess, unresolved: pass.unresolved.size > 0, controls: (pass.value as { creditControls: Record<string, unknown> }).creditControls };
    });
    // A reference that does not resolve is reported where it is; nothing to compare it with.
    const comparable = resolved.filter((entry) => !entry.unresolved);
    const [first, ...others] = comparable;
    if (first === undefined) continue;
    for (const other of others) {
      const field = Object.keys({ ...first.controls, ...other.controls }).find((key) => JSON.stringify(first.controls[key]) !== JSON.stringify(other.controls[key]));
      if (field === undefined) continue;
      const quoted = !first.fromProcess && !other.fromProcess;
      const shown = (value: unknown) => (value === undefined ? 'not declared' : quoted ? JSON.stringify(value) : 'a value from the process environment');
      diagnostics.push({
        severity: 'error',
        code: 'creditControls.sharedAccount',
        summary: `environments \`${first.name}\` and \`${other.name}\` share account \`${account}\`, whose AI credit controls are one setting, but declare different ones: \`creditControls.${field}\` is ${shown(first.controls[field])} in ${first.name} and ${shown(other.controls[field])} in ${other.name}`,
        hint: 'declare one value for every environment of the account (not a variable that differs between them), or give the environments different `account:` if they do not share credit controls',
        ...withLocation(locate(['creditControls', field]) ?? locate(['creditControls'])),
      });
      break;
    }
  }
  return diagnostics;
}

function resolvedDescription(reference: Reference, path: ConfigPath, config: Record<string, unknown>, environment: string | undefined): string {
  if (reference.namespace === 'env') return `comes from environment variable \`${reference.name}\`, which is always a string`;
  let value: unknown = config;
  for (const segment of path) value = isRecord(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[segment] : undefined;
  return `is ${describeValue(value, path) ?? 'a different type'}${environment === undefined ? '' : ` in environment \`${environment}\``}`;
}

/**
 * The configuration as it is loaded: each entry of a section whose kind declares it (`normalize`)
 * with its identities lower-cased and the defaults the loaded types promise filled in.
 */
function normalize(config: Record<string, unknown>, normalizers: KindRules['normalize']): Record<string, unknown> {
  const normalized: Record<string, unknown> = { ...config };
  for (const [section, entryAsLoaded] of normalizers) {
    const entries = config[section];
    if (Array.isArray(entries)) normalized[section] = entries.map((entry) => (isRecord(entry) ? entryAsLoaded(entry) : entry));
  }
  return normalized;
}

function referenceDiagnostics(pass: Interpolation, merged: MergedConfig): Diagnostic[] {
  return pass.problems.map((problem) => ({
    severity: 'error' as const,
    code: problem.code,
    summary: problem.summary,
    ...(problem.hint === undefined ? {} : { hint: problem.hint }),
    ...withLocation(referenceLocation(merged, problem.path, problem.text)),
  }));
}

/** The position of `text` inside the value at `path`: the reference itself, not just its value. */
function referenceLocation(merged: MergedConfig, path: ConfigPath, text: string): SourceLocation | undefined {
  const origin = merged.originOf(path);
  if (origin === undefined) return undefined;
  const range = rangeOf(origin.source.doc, origin.path);
  if (range === undefined) return locateInDocument(origin.source, origin.path);
  const found = origin.source.text.indexOf(text, range[0]);
  return positionAt(origin.source, found >= 0 && found < range[1] ? found : range[0]);
}

/** True when the value at the merged `path`, or one holding it, was reported by the YAML checks of its file. */
function isTainted(merged: MergedConfig, path: ConfigPath): boolean {
  const origin = merged.originOf(path);
  return origin !== undefined && (origin.source.tainted ?? []).some((tainted) => startsWith(origin.path, tainted));
}

function startsWith(path: ConfigPath, prefix: ConfigPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => String(segment) === String(path[index]));
}

function withLocation(location: SourceLocation | undefined): { location?: SourceLocation } {
  return location === undefined ? {} : { location };
}

function finish(analysis: ConfigAnalysis): ConfigAnalysis {
  const seen = new Set<string>();
  const unique = analysis.diagnostics.filter((diagnostic) => {
    const key = JSON.stringify([diagnostic.severity, diagnostic.code, diagnostic.summary, diagnostic.location]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const fileOrder = new Map(analysis.files.map((source, index) => [source.file, index]));
  unique.sort((a, b) => {
    if (a.location === undefined || b.location === undefined) return a.location === b.location ? 0 : a.location === undefined ? -1 : 1;
    const byFile = (fileOrder.get(a.location.file) ?? 0) - (fileOrder.get(b.location.file) ?? 0);
    return byFile || a.location.line - b.location.line || a.location.col - b.location.col || a.code.localeCompare(b.code);
  });
  analysis.diagnostics = unique;
  return analysis;
}
