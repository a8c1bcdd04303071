// `steward completion bash|zsh|fish`: scripts generated from the program. The bash script is run
// in bash and asked for completions as bash's completion would ask; zsh and fish (not installed
// on every machine) are checked for every command and option of the program.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/cli/completion.js';
import { KINDS } from '../../src/config/types.js';
import { buildProgram } from '../../src/cli/program.js';
import { captureIo } from '../e2e/helpers.js';

const program = buildProgram();

/** What the bash script completes for the words typed so far (the last one being completed). */
function bashComplete(words: string[]): Promise<string[]> {
  const script = `${completionScript('bash', program)}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_steward
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return new Promise((resolve, reject) => {
    execFile('bash', ['--noprofile', '--norc', '-c', script], { cwd: process.cwd() }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout.split('\n').filter((line) => line !== ''));
    });
  });
}

describe('steward completion', () => {
  it('bash completes the commands', async () => {
    expect(await bashComplete(['steward', ''])).toEqual(program.commands.map((command) => command.name()).concat(['--help', '--version']));
    expect(await bashComplete(['steward', 'pl'])).toEqual(['plan']);
  });

  it("bash completes a command's options, kinds after --target, paths after --config", async () => {
    expect(await bashComplete(['steward', 'plan', '--de'])).toEqual(['--debug', '--detailed-exitcode']);
    expect(await bashComplete(['steward', 'validate', '--c'])).toEqual(['--config']);
    expect(await bashComplete(['steward', 'apply', '--target', 'rou'])).toEqual(['routines']);
    expect(await bashComplete(['steward', 'plan', '--config', 'examples/gi'])).toEqual(['examples/gitops']);
    expect(await bashComplete(['steward', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(await bashComplete(['steward', 'plan', '--env', ''])).toEqual([]);
  });

  it('bash completes `npx --no-install steward` as it completes `steward`, and offers steward after npx', async () => {
    expect(await bashComplete(['npx', 'st'])).toEqual(['steward']);
    expect(await bashComplete(['npx', '--no-install', 'st'])).toEqual(['steward']);
    expect(await bashComplete(['npx', '--no-install', 'steward', 'pl'])).toEqual(['plan']);
    expect(await bashComplete(['npx', 'steward', 'pl'])).toEqual(['plan']);
    expect(await bashComplete(['npx', 'steward', 'plan', '--de'])).toEqual(['--debug', '--detailed-exitcode']);
    expect(await bashComplete(['npx', '--yes', 'steward', 'apply', '--target', 'rou'])).toEqual(['routines']);
    expect(await bashComplete(['npx', 'steward', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('zsh and fish complete `npx --no-install steward` too', () => {
    expect(completionScript('zsh', program)).toContain('compdef _steward steward npx');
    const fish = completionScript('fish', program);
    expect(fish).toContain("complete -c npx -n 'not __fish_seen_subcommand_from steward' -a steward");
    expect(fish).toContain("complete -c npx -n '__fish_seen_subcommand_from steward; and __fish_seen_subcommand_from plan' -l detailed-exitcode");
  });

  it('zsh and fish cover every command and option', () => {
    const zsh = completionScript('zsh', program);
    const fish = completionScript('fish', program);
    expect(zsh.startsWith('#compdef steward npx\n')).toBe(true);
    for (const command of program.commands) {
      expect(zsh).toContain(`    ${command.name()})\n`);
      expect(fish).toContain(`-a ${command.name()} -d '`);
      for (const option of command.options) {
        expect(zsh).toContain(`'${option.long}[`);
        expect(fish).toContain(`-n '__fish_seen_subcommand_from ${command.name()}' -l ${option.long!.slice(2)}`);
      }
    }
    expect(zsh).toContain(`:kind:(${KINDS.join(' ')})'`);
    expect(fish).toContain("-l config -s c -r -F -d 'config file or directory");
  });

  it('is printed by the command, and refuses a shell it does not know', async () => {
    const io = captureIo({}, process.cwd());
    await buildProgram(() => io).parseAsync(['node', 'steward', 'completion', 'fish']);
    expect(io.result(0).out).toBe(completionScript('fish', program));
    const wrong = captureIo({}, process.cwd());
    const refusing = buildProgram(() => wrong);
    for (const command of [refusing, ...refusing.commands]) command.exitOverride().configureOutput({ writeErr: wrong.stderr });
    await expect(refusing.parseAsync(['node', 'steward', 'completion', 'powershell'])).rejects.toThrow();
    expect(wrong.result(1).err).toContain("Error: command-argument value 'powershell' is invalid for argument 'shell'. choose one of bash, zsh, fish");
    // Said like every other error: a hint where to look, not the whole help text.
    expect(wrong.result(1).err).toContain('\nHint: `steward completion --help` shows its usage\n');
    expect(wrong.result(1).err).not.toContain('Usage:');
  });
});
