// CLI conventions a Terraform user reaches for: `steward version` and -v.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { STEWARD_VERSION } from '../../src/cli/io.js';
import { captureIo, PRODUCTION_TOKEN, type Result } from '../e2e/helpers.js';

const TOKENS = { STEWARD_PRODUCTION_TOKEN: PRODUCTION_TOKEN, STEWARD_PLAYGROUND_TOKEN: 'playground-org-admin-token' };

/** `steward ARGS` through the real program, in `cwd`, as a user types it. */
export async function steward(args: string[], cwd: string = process.cwd()): Promise<Result> {
  const io = captureIo({ ...TOKENS }, cwd);
  const program = buildProgram(() => io);
  for (const command of [program, ...program.commands]) command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'steward', ...args]);
    return io.result(Number(process.exitCode ?? 0));
  } catch (error) {
    if (error instanceof CommanderError) return io.result(error.exitCode);
    throw error;
  } finally {
    process.exitCode = undefined;
  }
}

describe('steward version', () => {
  it.each([['-v'], ['--version'], ['-V']])('%s prints the version and exits 0', async (flag) => {
    expect(await steward([flag])).toEqual({ code: 0, out: `${STEWARD_VERSION}\n`, err: '' });
  });

  it('is a command too, in words and as JSON', async () => {
    expect(await steward(['version'])).toEqual({ code: 0, out: `steward ${STEWARD_VERSION} (Node ${process.version})\n`, err: '' });
    const json = await steward(['version', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ version: STEWARD_VERSION, node: process.version });
  });

  it('help shows -v, not -V', async () => {
    const help = await steward(['--help']);
    expect(help.out).toContain("-v, --version               print steward's version");
    expect(help.out).not.toContain('-V');
    expect(help.out).toMatch(/^ {2}version \[options\] +print steward's version/m);
  });
});
