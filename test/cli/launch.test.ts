// The launcher imports only the command being run; help, version and completion still see the
// whole program, and each command registered alone is the same command as in the full program.
import { describe, expect, it } from 'vitest';
import { COMMANDS, programFor } from '../../src/cli/launch.js';
import { buildProgram } from '../../src/cli/program.js';

const names = buildProgram().commands.map((command) => command.name());

describe('the launcher', () => {
  it('knows every command of the program but completion, in the same order', () => {
    expect(COMMANDS.map(([name]) => name)).toEqual(names.filter((name) => name !== 'completion'));
  });

  it.each(COMMANDS.map(([name]) => name))('registers %s alone, with the options the full program gives it', async (name) => {
    const alone = await programFor(['node', 'steward', name, '--help']);
    expect(alone.commands.map((command) => command.name())).toEqual([name]);
    const full = buildProgram().commands.find((command) => command.name() === name)!;
    expect(alone.commands[0]!.options.map((option) => option.flags)).toEqual(full.options.map((option) => option.flags));
    expect(alone.commands[0]!.description()).toBe(full.description());
  });

  it.each([[[]], [['--help']], [['--version']], [['help', 'plan']], [['completion', 'bash']], [['nonsense']]])(
    'builds the whole program for %j',
    async (rest) => {
      const program = await programFor(['node', 'steward', ...rest]);
      expect(program.commands.map((command) => command.name())).toEqual(names);
    },
  );
});
