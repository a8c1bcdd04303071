// `steward schedule [--config PATH] [--env NAME] [--tz ZONE] [--json | --markdown]`: when the
// configured routines run, as a week of starts per hour, offline (no token, no request). Hours
// above the environment's routines.maxRunsPerHour are marked; plans enforce the rule. Exit 0, or
// 1 on an error.
import type { Command } from 'commander';
import { analyzeConfig } from '../app/config.js';
import { checkTimeZone } from '../domain/schedule.js';
import { runWeek, sharedZone, type RunWeek, type ScheduledRoutine } from '../domain/runWeek.js';
import { StewardError } from '../errors.js';
import { REGISTRY } from '../kinds/registry.js';
import { effectivePolicies } from '../policy/settings.js';
import { inertJson } from '../render/inert.js';
import { renderRunWeek, renderRunWeekMarkdown } from '../render/schedule.js';
import { loadForEnvironment } from './context.js';
import { configPath, environmentError, processIo, reportError, useColor, type CommandIo } from './io.js';

export interface ScheduleOptions {
  config?: string;
  /** The environment whose routines are shown; without it, every environment, when they run alike. */
  env?: string;
  /** The zone the days and hours are shown in (default: the zone every routine shares, else UTC). */
  tz?: string;
  json?: boolean;
  markdown?: boolean;
  color?: boolean;
  /** The clock (tests): the week starts at this day's midnight. */
  now?: Date;
}

/** Runs `steward schedule`; returns the exit code. */
export async function runSchedule(options: ScheduleOptions, io: CommandIo): Promise<number> {
  try {
    const { week, environments } = await weekOf(options, io);
    if (options.json) io.stdout(`${inertJson(JSON.stringify({ environments, ...week }, null, 2))}\n`);
    else if (options.markdown) io.stdout(`${renderRunWeekMarkdown(week, week.maxRunsPerHour).join('\n')}\n`);
    else io.stdout(renderRunWeek(week, { color: useColor(io, options.color), limit: week.maxRunsPerHour }));
    return 0;
  } catch (error) {
    return reportError(io, error, options.json === true);
  }
}

interface Scheduled {
  environment: string;
  routines: ScheduledRoutine[];
  limit: number | undefined;
}

/** The week of the environment asked for, or of every environment when their routines run alike. */
async function weekOf(options: ScheduleOptions, io: CommandIo): Promise<{ week: RunWeek; environments: string[] }> {
  if (options.tz !== undefined) {
    const zone = checkTimeZone(options.tz);
    if (!zone.ok) throw new StewardError('cli.tz', `--tz ${options.tz}: ${zone.reason}`, 'user', { hint: zone.hint ?? 'an IANA zone such as Europe/Berlin, America/New_York or UTC' });
  }
  const analysis = await analyzeConfig(configPath(options.config, io.cwd), {
    ...(options.env === undefined ? {} : { environment: options.env }),
    processEnv: io.env,
    selectionRequired: false,
    cwd: io.cwd,
  });
  const wrongEnvironment = environmentError(analysis.diagnostics, analysis.environments);
  if (wrongEnvironment !== undefined) throw wrongEnvironment;
  const names = options.env !== undefined ? [options.env] : analysis.environments;
  const each: Scheduled[] = [];
  for (const name of names) {
    const loaded = await loadForEnvironment(io, { ...(options.config === undefined ? {} : { config: options.config }), env: name, json: options.json === true, ...(options.color === undefined ? {} : { color: options.color }) });
    const limit = effectivePolicies(loaded.config, name).policies.routines?.maxRunsPerHour ?? undefined;
    each.push({ environment: name, routines: [...REGISTRY.values()].flatMap((kind) => kind.runs?.(loaded.config) ?? []), limit });
  }
  const [first] = each;
  if (first === undefined) throw new StewardError('cli.env-required', 'the configuration declares no environment', 'user', { hint: 'declare one under `environments:`' });
  // Variables may give routines other schedules per environment: one week only when they agree.
  const differing = each.filter((other) => JSON.stringify([other.routines, other.limit]) !== JSON.stringify([first.routines, first.limit]));
  if (differing.length > 0) {
    throw new StewardError('cli.env-required', `routines run differently in ${first.environment} and ${differing.map((other) => other.environment).join(', ')}: choose one`, 'user', {
      hint: each.map((other) => `--env ${other.environment}`).join(' or '),
    });
  }
  const zone = options.tz ?? sharedZone(first.routines);
  const week = runWeek(first.routines, options.now ?? new Date(), zone);
  return { week: first.limit === undefined ? week : { ...week, maxRunsPerHour: first.limit }, environments: each.map((other) => other.environment) };
}

/** Registers `steward schedule`. */
export function registerSchedule(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('schedule')
    .description('show when the configured routines run: a week of starts per hour, offline')
    .option('-c, --config <path>', 'config file or directory (default: ./steward.yaml, else ./steward/; --config . for this directory)')
    .option('-e, --env <name>', 'the environment whose routines to show (default: every environment, when their routines run alike)')
    .option('--tz <zone>', 'the IANA zone of the days and hours shown (default: the zone every routine shares, else UTC)')
    .option('--json', 'print the week as JSON, with the count of every hour')
    .option('--markdown', 'print the week as a Markdown table')
    .option('--no-color', 'do not colour the output')
    .action(async (options: ScheduleOptions) => {
      process.exitCode = await runSchedule(options, io());
    });
}
