// Terminal colours for plans and diagnostics: chalk at its 16-colour level when the command
// colours (it decides: useColor), and plain text otherwise. The command's decision is the only
// one: chalk's own colour detection is never consulted (each instance is given its level).
import { Chalk, type ChalkInstance } from 'chalk';

/** The styles steward uses. */
export type StyleName = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'bold' | 'dim';

/** One style, or a chain of them (`colors.red.bold`), applied by calling it. */
export type Palette = ChalkInstance;

const PLAIN = new Chalk({ level: 0 });
const COLORED = new Chalk({ level: 1 });

/** The palette for a command: ANSI codes when `color`, plain text otherwise. */
export function palette(color: boolean): Palette {
  return color ? COLORED : PLAIN;
}
