// A plan-time error scenario: a config the deployment cannot plan, run through the real program
// against the emulator as CI runs it, and what the printed error must say: where (the line of the
// object or field, as `file:line:col`) and, where there is one, the suggestion.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { datasetSeed, startEmulator, type EmulatorOptions, type Seed } from '../../src/emulator/index.js';
import { interceptingProxy } from '../e2e/proxy.js';
import { PRODUCTION_ENVIRONMENTS, type Result } from '../e2e/helpers.js';
import { runProgram } from './run.js';

export const ADA = 'ada@acme.example';

/** The fields after `name` of the demo's "Daily pipeline check" as it is live (its topic left out). */
export const PIPELINE_CHECK = `    owner: ${ADA}
    prompt: List deals that moved stage yesterday.
    schedule: "0 8 ? * MON-FRI *"
    timezone: America/New_York
    model: Sales
    destination: {type: slack, recipientId: C0PIPELINE1, slackRecipientType: channel}
`;

/** A `routines:` section of one new routine of Ada's, with `fields` (its model, branch, topic). */
export function routine(name: string, fields: string): string {
  return `routines:
  - name: ${name}
    owner: ${ADA}
    prompt: Summarise revenue.
    schedule: "0 8 ? * MON *"
    timezone: UTC
${fields}    destination: {type: email, recipientEmails: [${ADA}]}
`;
}

/** The demo seed, changed. */
export function demo(change: (seed: Seed) => void): Seed {
  const seed = datasetSeed('demo');
  change(seed);
  return seed;
}

export interface PlaceScenario {
  /** The error's code. */
  code: string;
  /** What the config gets wrong. */
  what: string;
  /** The config after the environments (PRODUCTION_ENVIRONMENTS). */
  yaml: string;
  /** Text of the line the error must point at (its first occurrence in the file). */
  at: string;
  /** Text the error must carry: the did-you-mean, the live value; absent where nothing can be suggested. */
  suggestion?: string;
  emulator?: EmulatorOptions;
  /** The token in STEWARD_PRODUCTION_TOKEN; default the demo's organization admin key. */
  token?: string;
  args?: string[];
  /** Answers the requests the emulator cannot be made to answer: a body for the URL, or undefined to forward it. */
  intercept?: (url: string) => unknown;
}

export interface PlacedResult extends Result {
  /** The config file's absolute path, and the line of `at` in it. */
  file: string;
  line: number;
  writes: number;
}

/** A fresh directory for each test of the calling file, removed afterwards; call at the top of a file. */
export function scratch(): () => string {
  let directory: string | undefined;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'steward-places-'));
  });
  afterAll(async () => {
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });
  return () => directory!;
}

/** `steward plan` of the scenario's config in `where`, against an emulator in `profile`, as CI runs it (annotations on). */
export async function planScenario(scenario: PlaceScenario, profile: EmulatorOptions['profile'], where: string): Promise<PlacedResult> {
  const emulator = await startEmulator({ ...(scenario.emulator?.data === undefined ? { dataset: 'demo' as const } : {}), profile, ...scenario.emulator });
  const intercept = scenario.intercept;
  const proxy =
    intercept === undefined
      ? undefined
      : await interceptingProxy(emulator.url, (request) => {
          const body = intercept(request.url ?? '');
          return body === undefined ? undefined : { status: 200, body };
        });
  try {
    const file = join(where, 'steward.yaml');
    await writeFile(file, PRODUCTION_ENVIRONMENTS + scenario.yaml);
    const env = { STEWARD_PRODUCTION_TOKEN: scenario.token ?? 'demo-org-admin-token', GITHUB_ACTIONS: 'true' };
    const result = await runProgram(['plan', '--config', 'steward.yaml', '--base-url', proxy?.url ?? emulator.url, ...(scenario.args ?? [])], env, where);
    const line = (PRODUCTION_ENVIRONMENTS + scenario.yaml).split('\n').findIndex((text) => text.includes(scenario.at)) + 1;
    return { ...result, file, line, writes: emulator.stats().writes };
  } finally {
    await proxy?.close();
    await emulator.close();
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The plan failed (exit 1, nothing written) with the scenario's error: printed starting with the
 * `file:line:col` of its line, annotated there for GitHub under its code, with its suggestion.
 */
export function expectPlaced(scenario: PlaceScenario, result: PlacedResult): void {
  expect(result.code, result.err).toBe(1);
  expect(result.line, `"${scenario.at}" is in the config`).toBeGreaterThan(0);
  // Findings the config loads with (an `until` passed) may be printed above it.
  expect(result.err).toMatch(new RegExp(`^Error: ${escaped(result.file)}:${result.line}:\\d+: `, 'm'));
  // The annotation names the code: the error is the one the scenario is about.
  expect(result.out).toMatch(new RegExp(`^::error file=[^,]+,line=${result.line},col=\\d+,title=steward ${escaped(scenario.code)}::`, 'm'));
  if (scenario.suggestion !== undefined) expect(result.err).toContain(scenario.suggestion);
  expect(result.writes).toBe(0);
}

/**
 * An intercept for SCIM's users listing: asked about `email`, it answers two users who both have
 * it as userName (the first active), as a directory with a duplicate does.
 */
export function twoUsersNamed(email: string): (url: string) => unknown {
  return (url) =>
    url.includes('/scim/v2/users') && decodeURIComponent(url).includes(email)
      ? {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
          totalResults: 2,
          itemsPerPage: 2,
          startIndex: 1,
          Resources: ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'].map((id, index) => ({
            schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
            id,
            userName: email,
            active: index === 0,
            emails: [{ value: email, primary: true }],
          })),
        }
      : undefined;
}
