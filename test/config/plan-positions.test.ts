// Errors that only planning can find (an e-mail that is no user of the instance, one user named
// by e-mail and by id) still point at the configuration: `file:line:col: ` in the terminal,
// `details.position(s)` in --json, and one GitHub annotation per place.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/context.js';
import { runPlan } from '../../src/cli/plan.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { PRODUCTION_ENVIRONMENTS } from '../e2e/helpers.js';

const TOKEN = 'demo-org-admin-token';
let emulator: RunningEmulator;
let directory: string;

beforeAll(async () => {
  emulator = await startEmulator({ dataset: 'demo' });
  directory = await mkdtemp(join(tmpdir(), 'steward-positions-'));
});
afterAll(async () => {
  await emulator.close();
  await rm(directory, { recursive: true, force: true });
});

/** Positions name files as the process sees them: this directory is outside its working directory. */
const at = (line: number, col: number) => `${join(directory, 'steward.yaml')}:${line}:${col}`;

async function plan(yaml: string, options: { json?: boolean; env?: Record<string, string> } = {}) {
  await writeFile(join(directory, 'steward.yaml'), PRODUCTION_ENVIRONMENTS + yaml);
  const out = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    env: { STEWARD_PRODUCTION_TOKEN: TOKEN, ...options.env },
    cwd: directory,
    isTTY: false,
  };
  const code = await runPlan({ config: 'steward.yaml', baseUrl: emulator.url, ...(options.json ? { json: true } : {}) }, io);
  return { code, ...out };
}

describe('plan-time errors about declared objects', () => {
  const unknownUser = `userCreditLimits:
  - email: ada@acme.example
    creditLimit: 100
  - email: nobody@acme.example
    creditLimit: 50
`;

  it('prints an e-mail that is no user at its file:line:col', async () => {
    const result = await plan(unknownUser);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: ${at(10, 12)}: this e-mail address is not a user of the instance: nobody@acme.example`);
  });

  it('gives the position in --json as details.position', async () => {
    const result = await plan(unknownUser, { json: true });
    const envelope = JSON.parse(result.stdout) as { error: { code: string; position: unknown; positions: unknown[] } };
    expect(envelope.error.code).toBe('plan.unknown-user');
    const position = { file: join(directory, 'steward.yaml'), line: 10, col: 12 };
    expect(envelope.error.position).toEqual(position);
    expect(envelope.error.positions).toEqual([position]);
  });

  it('annotates the place on GitHub', async () => {
    const result = await plan(unknownUser, { env: { GITHUB_ACTIONS: 'true' } });
    expect(result.stdout).toContain(
      `::error file=${join(directory, 'steward.yaml').replace(/:/g, '%3A')},line=10,col=12,title=steward plan.unknown-user::this e-mail address is not a user of the instance: nobody@acme.example`,
    );
  });

  it('refuses one user named by e-mail and by id, naming both places', async () => {
    const id = emulator.state.userId('ada@acme.example');
    const result = await plan(`userCreditLimits:
  - email: ada@acme.example
    creditLimit: 100
  - userId: ${id.toUpperCase()}
    creditLimit: 50
`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: ${at(10, 13)}: \`${id}\` and \`ada@acme.example\` (at ${at(8, 12)}) are the same user of this instance`);
    expect(result.stderr).toContain(`\n  ${at(8, 12)}\n`);
  });

  it('points an unknown model at the routines that name it', async () => {
    const result = await plan(`routines:
  - name: Digest
    owner: ada@acme.example
    prompt: Revenue by region.
    schedule: "0 8 ? * MON *"
    timezone: UTC
    modelId: 00000000-0000-4000-8000-00000000beef
    destination: {type: email, recipientEmails: [ada@acme.example]}
`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^Error: ${at(13, 14).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, 'm'));
  });
});
