// Diagnostics as people, tools and GitHub Actions read them; whole outputs compared as strings.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/config/types.js';
import { diagnosticToJson, githubAnnotations, renderDiagnostics, underlineWidth } from '../../src/render/diagnostics.js';

const source = [
  'version: 1',
  'environments:',
  '  production:',
  '    baseUrl: https://acme.example.com',
  '    tokenEnv: STEWARD_PRODUCTION_TOKEN',
  '    token: not-a-real-token-0123456789',
  'creditControls:',
  '  shutofCredits: 10000',
  'routines:',
  '  - name: Weekly revenue digest',
  '    schedule: "0 9 * * MON *"',
  '',
].join('\n');
const sources = new Map([['config/steward.yaml', source]]);

const unknownKey: Diagnostic = {
  severity: 'error',
  code: 'schema.unknownKey',
  summary: 'unknown key `shutofCredits` in `creditControls`',
  hint: 'did you mean `shutoffCredits`?',
  location: { file: 'config/steward.yaml', line: 8, col: 3 },
};
const schedule: Diagnostic = {
  severity: 'error',
  code: 'routine.schedule',
  summary: 'invalid schedule `0 9 * * MON *`: exactly one of day-of-month and day-of-week must be `?`',
  location: { file: 'config/steward.yaml', line: 11, col: 15 },
};
const secret: Diagnostic = {
  severity: 'error',
  code: 'secret.key',
  summary: '`token` looks like a literal secret; API tokens never go into a configuration file',
  location: { file: 'config/steward.yaml', line: 6, col: 5 },
};
const warning: Diagnostic = {
  severity: 'warning',
  code: 'protect.undeclaredLabel',
  summary: 'environment `production` protects label `financ`, which is neither declared nor renamed, and labels are not pruned',
  detail: 'Protection only matters for labels that are pruned.',
  hint: 'did you mean `finance`?',
};

describe('renderDiagnostics', () => {
  it('prints position, message, the source line with a caret under the value, and the hint', () => {
    const text = renderDiagnostics([unknownKey, schedule, warning], { color: false, sources });
    expect(text).toBe(
      [
        'config/steward.yaml:8:3: error: unknown key `shutofCredits` in `creditControls`',
        ' 8 |   shutofCredits: 10000',
        '   |   ^^^^^^^^^^^^^',
        '  hint: did you mean `shutoffCredits`?',
        '',
        'config/steward.yaml:11:15: error: invalid schedule `0 9 * * MON *`: exactly one of day-of-month and day-of-week must be `?`',
        ' 11 |     schedule: "0 9 * * MON *"',
        '    |               ^^^^^^^^^^^^^^^',
        '',
        'warning: environment `production` protects label `financ`, which is neither declared nor renamed, and labels are not pruned',
        '  Protection only matters for labels that are pruned.',
        '  hint: did you mean `finance`?',
        '',
      ].join('\n'),
    );
  });

  it('never shows the value of a line that holds a secret', () => {
    const text = renderDiagnostics([secret], { color: false, sources });
    expect(text).not.toContain('not-a-real-token-0123456789');
    expect(text).toBe(
      [
        'config/steward.yaml:6:5: error: `token` looks like a literal secret; API tokens never go into a configuration file',
        ' 6 |     token: <redacted>',
        '   |     ^^^^^',
        '',
      ].join('\n'),
    );
  });

  it('colours only when asked, with the same text underneath', () => {
    const plain = renderDiagnostics([unknownKey, warning], { color: false, sources });
    const coloured = renderDiagnostics([unknownKey, warning], { color: true, sources });
    expect(plain).not.toMatch(/\u001b\[/);
    expect(coloured).toMatch(/\u001b\[31m/);
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });

  it('reads sources through a function and omits the excerpt when a file is unavailable', () => {
    const text = renderDiagnostics([unknownKey], { color: false, sources: () => undefined });
    expect(text).toBe(['config/steward.yaml:8:3: error: unknown key `shutofCredits` in `creditControls`', '  hint: did you mean `shutoffCredits`?', ''].join('\n'));
  });

  it('renders nothing for no diagnostics', () => {
    expect(renderDiagnostics([], { color: false, sources })).toBe('');
  });
});

describe('underlineWidth', () => {
  it('underlines a key, a plain value, a quoted value and a flow item', () => {
    expect(underlineWidth('  shutofCredits: 10000', 3)).toBe(13);
    expect(underlineWidth('    timezone: Europe/Berlinn # typo', 15)).toBe(14);
    expect(underlineWidth('    schedule: "0 9 * * MON *"', 15)).toBe(15);
    expect(underlineWidth('    labels: [legacy-kpis, financ]', 27)).toBe(6);
    expect(underlineWidth('', 1)).toBe(1);
  });
});

describe('diagnosticToJson', () => {
  it('flattens the position', () => {
    expect(diagnosticToJson(unknownKey)).toEqual({
      severity: 'error',
      code: 'schema.unknownKey',
      message: 'unknown key `shutofCredits` in `creditControls`',
      hint: 'did you mean `shutoffCredits`?',
      file: 'config/steward.yaml',
      line: 8,
      col: 3,
    });
  });
});

describe('githubAnnotations', () => {
  it('writes one workflow command per diagnostic, escaping data and properties', () => {
    const odd: Diagnostic = { ...schedule, summary: '100% wrong\nreally', location: { file: 'a,b:c.yaml', line: 2, col: 4 } };
    expect(githubAnnotations([unknownKey, warning, odd])).toBe(
      [
        '::error file=config/steward.yaml,line=8,col=3,title=steward schema.unknownKey::unknown key `shutofCredits` in `creditControls`%0Adid you mean `shutoffCredits`?',
        '::warning title=steward protect.undeclaredLabel::environment `production` protects label `financ`, which is neither declared nor renamed, and labels are not pruned%0Adid you mean `finance`?',
        '::error file=a%2Cb%3Ac.yaml,line=2,col=4,title=steward routine.schedule::100%25 wrong%0Areally',
        '',
      ].join('\n'),
    );
  });
});
