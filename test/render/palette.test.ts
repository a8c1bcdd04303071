// The renderers' palette: chalk at level 1 when the command colours, plain text otherwise, and
// never chalk's own guess from the terminal.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { palette, type StyleName } from '../../src/render/palette.js';

const NAMES: StyleName[] = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'bold', 'dim'];
const TEXTS = ['', 'plain', 'two\nlines', 'trailing\n', 42];

describe('palette', () => {
  it('colours with 16-colour ANSI codes when colour is on', () => {
    const ours = palette(true);
    expect(ours.red('x')).toBe('\u001B[31mx\u001B[39m');
    expect(ours.bold.green('x')).toBe('\u001B[1m\u001B[32mx\u001B[39m\u001B[22m');
    for (const text of TEXTS) for (const name of NAMES) expect(ours[name](text)).toBe(new Chalk({ level: 1 })[name](text));
  });

  it('returns the text unchanged when colour is off, whatever the terminal supports', () => {
    const ours = palette(false);
    for (const text of TEXTS) for (const name of NAMES) expect(ours[name].bold(text)).toBe(String(text));
  });
});
