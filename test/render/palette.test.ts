// The palette writes exactly what chalk (level 1) wrote before it replaced chalk in the renderers:
// plans and diagnostics look the same, coloured or not.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { palette, type StyleName } from '../../src/render/palette.js';

const NAMES: StyleName[] = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'bold', 'dim'];
const TEXTS = ['', 'plain', 'two\nlines', 'windows\r\nlines\r\n', 'trailing\n', 42, `inner ${new Chalk({ level: 1 }).bold('bold')} rest`, `${new Chalk({ level: 1 }).red.bold('nested')}\nnext`];

describe('palette', () => {
  it('colours every style and chain of two as chalk at level 1 does', () => {
    const chalk = new Chalk({ level: 1 });
    const ours = palette(true);
    for (const text of TEXTS) {
      for (const first of NAMES) {
        expect(ours[first](text)).toBe(chalk[first](text));
        for (const second of NAMES) expect(ours[first][second](text)).toBe(chalk[first][second](text));
      }
    }
  });

  it('returns the text unchanged when colour is off', () => {
    const chalk = new Chalk({ level: 0 });
    const ours = palette(false);
    for (const text of TEXTS) {
      for (const first of NAMES) {
        expect(ours[first](text)).toBe(chalk[first](text));
        expect(ours[first].bold(text)).toBe(chalk[first].bold(text));
      }
    }
  });
});
