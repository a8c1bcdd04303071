// `steward validate [PATH] [--config PATH] [--env NAME] [--json]`: checks a configuration without
// talking to any server, in the editor's pre-commit hook or in CI. Exit 0 when valid (warnings
// allowed, unless --strict: then a warning that the config names something that does not exist
// fails, as in plan), 1 not.
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyzeConfig } from '../app/config.js';
import { displayPath } from '../config/sources.js';
import { StewardError } from '../errors.js';
import { diagnosticToJson, renderDiagnostics } from '../render/diagnostics.js';
import { annotate, configPath, environmentError, processIo, reportError, useColor, type CommandIo } from './io.js';
import { inertJson, terminalText } from '../render/inert.js';
import { checkedConfig } from '../config/load.js';
import { offlineExposure } from '../engine/exposure.js';
import { exposureDetails, exposureHeadline } from '../render/exposure.js';

export interface ValidateOptions {
  /** The config, like every other command's --config (the positional PATH says the same). */
  config?: string;
  /** Check references against this environment only (default: every declared environment). */
  env?: string;
  json?: boolean;
  /** false with --no-color. */
  color?: boolean;
  /** A warning that the config names something that does not exist makes it invalid. */
  strict?: boolean;
}

/** Runs `steward validate`; returns the exit code (0 valid, 1 invalid). */
export async function runValidate(positional: string | undefined, options: ValidateOptions, io: CommandIo): Promise<number> {
  try {
    return await validate(positional, options, io);
  } catch (error) {
    return reportError(io, error, options.json === true);
  }
}

async function validate(positional: string | undefined, options: ValidateOptions, io: CommandIo): Promise<number> {
  if (positional !== undefined && options.config !== undefined && positional !== options.config) {
    throw new StewardError('cli.options', `validate was given two configs: ${positional} and --config ${options.config}`, 'user', { hint: 'pass one of them' });
  }
  const path = positional ?? options.config;
  const target = configPath(path, io.cwd);
  const analysis = await analyzeConfig(target, {
    ...(options.env === undefined ? {} : { environment: options.env }),
    processEnv: io.env,
    selectionRequired: false,
    cwd: io.cwd,
  });
  const { diagnostics } = analysis;
  const wrongEnvironment = environmentError(diagnostics, analysis.environments);
  if (wrongEnvironment !== undefined) throw wrongEnvironment;
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const strictErrors = options.strict === true ? diagnostics.filter((diagnostic) => diagnostic.severity === 'warning' && diagnostic.namesMissing === true).length : 0;
  const valid = errors === 0 && strictErrors === 0;
  annotate(io, diagnostics, options.json === true);
  // With one environment chosen, the exposure the config alone allows (the plan counts the rest).
  const exposure = valid && analysis.selected !== undefined ? offlineExposure(checkedConfig(analysis.selected.config)) : undefined;

  if (options.json) {
    const report = {
      valid,
      errors,
      warnings,
      files: analysis.files.map((file) => file.file),
      environments: analysis.checked,
      diagnostics: diagnostics.map(diagnosticToJson),
      ...(exposure === undefined ? {} : { exposure }),
    };
    io.stdout(`${inertJson(JSON.stringify(report, null, 2))}\n`);
    return valid ? 0 : 1;
  }

  if (diagnostics.length > 0) {
    const sources = (file: string) => {
      const fromAnalysis = analysis.files.find((source) => source.file === file);
      if (fromAnalysis !== undefined) return fromAnalysis.text;
      try {
        return readFileSync(resolve(io.cwd, file), 'utf8');
      } catch {
        return undefined;
      }
    };
    io.stderr(`${renderDiagnostics(diagnostics, { color: useColor(io, options.color), sources })}\n`);
  }
  const shown = path ?? displayPath(target, io.cwd);
  if (valid) {
    const environments = analysis.checked.length === 0 ? '' : `; environment${analysis.checked.length === 1 ? '' : 's'} ${analysis.checked.join(', ')}`;
    const files = `${analysis.files.length} file${analysis.files.length === 1 ? '' : 's'}`;
    const withWarnings = warnings === 0 ? '' : `, with ${count(warnings, 'warning')}`;
    io.stdout(`The configuration at ${shown} is valid${withWarnings} (${files}${environments}).\n`);
    if (exposure !== undefined) io.stdout(`${[exposureHeadline(exposure), ...exposureDetails(exposure).map((line) => `  ${line}`)].map(terminalText).join('\n')}\n`);
  } else {
    const strictly = strictErrors === 0 ? '' : ` (under --strict, ${count(strictErrors, 'warning')} that name${strictErrors === 1 ? 's' : ''} something that does not exist)`;
    io.stderr(`The configuration at ${shown} is not valid${strictly}: ${count(errors, 'error')}${warnings === 0 ? '' : `, ${count(warnings, 'warning')}`}.\n`);
  }
  return valid ? 0 : 1;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Registers `steward validate`. */
export function registerValidate(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('validate')
    .description('check a configuration (file or directory) without contacting any server')
    .argument('[path]', 'config file or directory, the same as --config (default: ./steward.yaml, else ./steward/)')
    .option('-c, --config <path>', 'config file or directory (default: ./steward.yaml, else ./steward/; --config . for this directory)')
    .option('-e, --env <name>', 'check references against this environment only (default: every environment)')
    .option('--json', 'print the findings as JSON')
    .option('--strict', 'fail (exit 1) on a warning that the config names something that does not exist, e.g. a protected label nobody declares')
    .option('--no-color', 'do not colour the output')
    .action(async (path: string | undefined, options: ValidateOptions) => {
      process.exitCode = await runValidate(path, options, io());
    });
}
