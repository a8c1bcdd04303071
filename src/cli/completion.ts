// `steward completion bash|zsh|fish`: a shell completion script, generated from the commander
// program itself, so every command and option steward has is completed and none it lacks.
// File-taking options complete paths; --target/--exclude complete kinds. Both `steward` (a global
// install) and `npx --no-install steward` (the project's own install, as the docs run it) are completed.
import { InvalidArgumentError, type Command, type Option } from 'commander';
import { unreachable } from '../errors.js';
import { KINDS } from '../config/types.js';
import { processIo, type CommandIo } from './context.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What an option's value is, for completion. */
type ValueKind = 'none' | 'file' | 'kind' | 'shell' | 'other';

interface OptionInfo {
  long?: string;
  short?: string;
  description: string;
  value: ValueKind;
}

interface CommandInfo {
  name: string;
  description: string;
  options: OptionInfo[];
  /** Whether the command takes a path as a positional argument (validate, apply, init). */
  takesPath: boolean;
  /** Fixed positional choices (completion's shells). */
  choices: readonly string[];
}

const FILE_OPTIONS = new Set(['--config', '--out', '--markdown', '--state', '--seed']);

function valueOf(option: Option): ValueKind {
  if (!option.required && !option.optional) return 'none';
  if (option.long === '--target' || option.long === '--exclude') return 'kind';
  if (option.long !== undefined && FILE_OPTIONS.has(option.long)) return 'file';
  return 'other';
}

/** The commands and their options, as the program declares them. */
export function describeProgram(program: Command): CommandInfo[] {
  return program.commands.map((command) => ({
    name: command.name(),
    description: command.description(),
    options: [
      ...command.options.map((option) => ({
        ...(option.long === undefined ? {} : { long: option.long }),
        ...(option.short === undefined ? {} : { short: option.short }),
        description: option.description,
        value: valueOf(option),
      })),
      { long: '--help', short: '-h', description: 'display help for command', value: 'none' as const },
    ],
    takesPath: command.registeredArguments.some((argument) => /path|file|dir/.test(argument.name())),
    choices: command.name() === 'completion' ? SHELLS : [],
  }));
}

/** The completion script for `shell`. */
export function completionScript(shell: Shell, program: Command): string {
  const commands = describeProgram(program);
  switch (shell) {
    case 'bash':
      return bashScript(commands);
    case 'zsh':
      return zshScript(commands);
    case 'fish':
      return fishScript(commands);
    default:
      return unreachable(shell);
  }
}

function bashScript(commands: CommandInfo[]): string {
  const words = (options: OptionInfo[], value: ValueKind[]) =>
    options.filter((option) => value.includes(option.value)).flatMap((option) => [option.long, option.short]).filter((word) => word !== undefined).join('|');
  const cases = commands
    .map((command) => {
      const all = command.options.flatMap((option) => [option.long, option.short]).filter((word) => word !== undefined).join(' ');
      const files = words(command.options, ['file']);
      const kinds = words(command.options, ['kind']);
      const others = words(command.options, ['other']);
      return [
        `    ${command.name})`,
        `      options='${all}'`,
        files === '' ? '' : `      case "$prev" in ${files}) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac`,
        kinds === '' ? '' : `      case "$prev" in ${kinds}) COMPREPLY=($(compgen -W '${KINDS.join(' ')}' -- "$cur")); return ;; esac`,
        others === '' ? '' : `      case "$prev" in ${others}) return ;; esac`,
        command.choices.length > 0 ? `      [[ "$cur" != -* ]] && COMPREPLY=($(compgen -W '${command.choices.join(' ')}' -- "$cur")) && return` : '',
        command.takesPath ? '      [[ "$cur" != -* ]] && COMPREPLY=($(compgen -f -- "$cur")) && return' : '',
        '      ;;',
      ]
        .filter((line) => line !== '')
        .join('\n');
    })
    .join('\n');
  return `# steward completion for bash. Load it in this shell:  source <(npx --no-install steward completion bash)
# or for every shell:  npx --no-install steward completion bash > ~/.local/share/bash-completion/completions/steward
# It completes \`steward\` (a global install, npm link) and \`npx --no-install steward\` (a project's own
# install): after npx it offers steward, and completes steward's words once it is typed.
_steward() {
  local cur prev options words cword first=0 i
  if [ "\${COMP_WORDS[0]##*/}" = npx ]; then
    first=-1
    for ((i = 1; i < COMP_CWORD; i++)); do
      if [ "\${COMP_WORDS[i]}" = steward ]; then first=$i; break; fi
    done
    if [ "$first" -lt 0 ]; then
      COMPREPLY=($(compgen -W steward -- "\${COMP_WORDS[COMP_CWORD]}"))
      return
    fi
  fi
  words=("\${COMP_WORDS[@]:first}")
  cword=$((COMP_CWORD - first))
  cur="\${words[cword]}"
  prev="\${words[cword-1]}"
  if [ "$cword" -eq 1 ]; then
    COMPREPLY=($(compgen -W '${commands.map((command) => command.name).join(' ')} --help --version' -- "$cur"))
    return
  fi
  case "\${words[1]}" in
${cases}
    *) return ;;
  esac
  COMPREPLY=($(compgen -W "$options" -- "$cur"))
}
complete -o filenames -F _steward steward
complete -o default -F _steward npx
`;
}

/** Text inside a zsh `_arguments` spec: brackets and colons would end the description. */
function zshText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/\[/g, '(').replace(/]/g, ')').replace(/:/g, ' -');
}

function zshScript(commands: CommandInfo[]): string {
  const action = (value: ValueKind) => (value === 'file' ? ':path:_files' : value === 'kind' ? `:kind:(${KINDS.join(' ')})` : value === 'other' ? ':value: ' : '');
  const cases = commands
    .map((command) => {
      const specs = command.options.flatMap((option) =>
        [option.long, option.short].filter((word) => word !== undefined).map((word) => `'${word}[${zshText(option.description)}]${action(option.value)}'`),
      );
      if (command.choices.length > 0) specs.push(`':shell:(${command.choices.join(' ')})'`);
      else if (command.takesPath) specs.push("'*:path:_files'");
      return `    ${command.name})\n      _arguments -s \\\n        ${specs.join(' \\\n        ')}\n      ;;`;
    })
    .join('\n');
  const described = commands.map((command) => `    '${command.name}:${zshText(command.description)}'`).join('\n');
  return `#compdef steward npx
# steward completion for zsh. Load it in this shell:  source <(npx --no-install steward completion zsh)
# (after compinit), or save it as _steward in a directory of $fpath. It completes \`steward\`
# and \`npx --no-install steward\` (after npx it offers steward, then completes steward's words).
_steward() {
  if [[ $words[1] == npx ]]; then
    local at=\${words[(i)steward]}
    if (( at >= CURRENT )); then
      compadd steward
      return
    fi
    shift $(( at - 1 )) words
    (( CURRENT -= at - 1 ))
  fi
  local -a commands
  commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'steward command' commands
    return
  fi
  local command=$words[2]
  (( CURRENT-- ))
  shift words
  case $command in
${cases}
  esac
}
if [ "$funcstack[1]" = "_steward" ]; then
  _steward "$@"
else
  compdef _steward steward npx
fi
`;
}

/** Text inside single quotes in fish. */
function fishText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

function fishScript(commands: CommandInfo[]): string {
  const names = commands.map((command) => command.name).join(' ');
  // `steward …`, and `npx --no-install steward …` once steward is typed: the same lines, for each program.
  const programs = [
    { program: 'steward', when: '' },
    { program: 'npx', when: '__fish_seen_subcommand_from steward; and ' },
  ];
  const lines = [
    '# steward completion for fish. Load it in this shell:  npx --no-install steward completion fish | source',
    '# or for every shell:  npx --no-install steward completion fish > ~/.config/fish/completions/steward.fish',
    '# It completes `steward` and `npx --no-install steward` (after npx it offers steward).',
    'complete -c steward -f',
    "complete -c npx -n 'not __fish_seen_subcommand_from steward' -a steward -d 'declarative configuration for the analytics platform'",
  ];
  for (const { program, when: seen } of programs) {
    lines.push(...commands.map((command) => `complete -c ${program} -n '${seen}not __fish_seen_subcommand_from ${names}' -f -a ${command.name} -d '${fishText(command.description)}'`));
    for (const command of commands) {
      const when = `-n '${seen}__fish_seen_subcommand_from ${command.name}'`;
      for (const option of command.options) {
        const flags = [option.long === undefined ? '' : `-l ${option.long.slice(2)}`, option.short === undefined ? '' : `-s ${option.short.slice(1)}`].filter((flag) => flag !== '').join(' ');
        const value = option.value === 'file' ? ' -r -F' : option.value === 'kind' ? ` -x -a '${KINDS.join(' ')}'` : option.value === 'other' ? ' -x' : '';
        lines.push(`complete -c ${program} ${when} ${flags}${value} -d '${fishText(option.description)}'`);
      }
      if (command.choices.length > 0) lines.push(`complete -c ${program} ${when} -a '${command.choices.join(' ')}'`);
      else if (command.takesPath) lines.push(`complete -c ${program} ${when} -F`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function shellArgument(value: string): Shell {
  if (!(SHELLS as readonly string[]).includes(value)) throw new InvalidArgumentError(`choose one of ${SHELLS.join(', ')}`);
  return value as Shell;
}

/** Registers `steward completion`. */
export function registerCompletion(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', `one of ${SHELLS.join(', ')}`, shellArgument)
    .action((shell: Shell) => {
      io().stdout(completionScript(shell, program));
    });
}
