// What every build of the program shares: its description and version, and usage errors as
// JSON under --json. Kept apart from program.ts (which imports every command) so that the
// launcher can build a program holding only the command being run.
import { Command, Option } from 'commander';
import { EventEmitter } from 'node:events';
import { STEWARD_VERSION, type CommandIo } from './io.js';
import { inertJson } from '../render/inert.js';

/** The program before any command is registered. */
export function newProgram(): Command {
  const program = new Command('steward')
    .description(
      'Declarative configuration for an analytics platform: AI credit controls, per-user ' +
        'credit limits, AI routines and labels, kept in git and applied through the REST API.',
    )
    // -v as most CLIs have it (and `steward version`); -V, commander's default, keeps working for scripts that use it.
    .version(STEWARD_VERSION, '-v, --version', "print steward's version")
    .addOption(new Option('-V', 'the same as --version').hideHelp());
  // Commander is an EventEmitter (its typings declare only `on`): -V fires what --version does.
  program.on('option:V', () => {
    if (program instanceof EventEmitter) program.emit('option:version');
  });
  return program;
}

/**
 * A usage error (unknown option, missing --against) under --json is a JSON error too: stdout
 * carries exactly one JSON document whatever went wrong; the text still goes to stderr.
 */
export function withJsonUsageErrors(program: Command, io: () => CommandIo): Command {
  for (const command of [program, ...program.commands]) {
    // Said like every other error (`Error:` then `Hint:`), pointing at the command's help rather than printing all of it.
    command.showHelpAfterError(`Hint: \`steward ${command === program ? '' : `${command.name()} `}--help\` ${command === program ? 'lists the commands' : 'shows its usage'}`);
    command.configureOutput({
      outputError: (text, write) => {
        write(text.replace(/^error: /, 'Error: '));
        // rawArgs: what parse() was given (commander keeps it; its typings do not declare it).
        const given = 'rawArgs' in program && Array.isArray(program.rawArgs) ? program.rawArgs : [];
        if (given.includes('--json')) {
          const envelope = { error: { code: 'cli.usage', fault: 'user', message: text.replace(/^error: /, '').trim() } };
          io().stdout(`${inertJson(JSON.stringify(envelope, null, 2))}\n`);
        }
      },
    });
  }
  return program;
}
