// Diagnostics as people, tools and GitHub Actions read them; whole outputs compared as strings.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/config/types.js';
import { EXCERPT_WIDTH, diagnosticToJson, githubAnnotations, maskUrlCredentials, renderDiagnostics, underlineWidth } from '../../src/render/diagnostics.js';

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

  it('masks a secret value on every line it spans, in the excerpt of any finding there', () => {
    const text = ['  client_secret: >-', '    SECRET3multi', '  v: {k: "SECRET4", b: 1}', ''].join('\n');
    const secretFinding = (line: number, end: { line: number; col: number }): Diagnostic => ({
      ...secret,
      location: { file: 's.yaml', line, col: 3 },
      secretValue: { start: { file: 's.yaml', line, col: line === 1 ? 18 : 10 }, end: { file: 's.yaml', ...end } },
    });
    const other = (line: number, col: number): Diagnostic => ({ ...schedule, summary: 'other', location: { file: 's.yaml', line, col } });
    const rendered = renderDiagnostics([secretFinding(1, { line: 3, col: 1 }), secretFinding(3, { line: 3, col: 19 }), other(2, 5), other(3, 21)], {
      color: false,
      sources: new Map([['s.yaml', text]]),
    });
    expect(rendered).not.toContain('SECRET');
    expect(rendered).toContain([' 2 |     <redacted>', '   |     ^^^^^^^^^^'].join('\n'));
    expect(rendered).toContain([' 3 |   v: {k: <redacted>, b: 1}', '   |                      ^'].join('\n'));
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

  it('masks the credentials of an address on any excerpt', () => {
    const line = '    baseUrl: https://ada:pa/ss@word@acme.example.com/api';
    const text = renderDiagnostics([{ ...schedule, location: { file: 'url.yaml', line: 1, col: 14 } }], { color: false, sources: new Map([['url.yaml', line]]) });
    expect(text).toContain(' 1 |     baseUrl: https://<redacted>@acme.example.com/api\n');
  });

  it('shows a window of a very long line around the column, in time linear in its length', () => {
    const description = 'x'.repeat(2_000_000);
    const line = `    description: ${description} tail`;
    const diagnostic: Diagnostic = { ...schedule, summary: 'too long', location: { file: 'long.yaml', line: 1, col: 18 } };
    const started = performance.now();
    const text = renderDiagnostics([diagnostic], { color: false, sources: new Map([['long.yaml', line]]) });
    expect(performance.now() - started).toBeLessThan(2000);
    const shown = `    description: ${'x'.repeat(EXCERPT_WIDTH - 17)}`;
    expect(text).toBe(['long.yaml:1:18: error: too long', ` 1 | ${shown}…`, `   |                  ${'^'.repeat(EXCERPT_WIDTH - 17)}`, ''].join('\n'));
  });

  it('cuts both ends of a long line when the column is far into it', () => {
    const line = `${'a'.repeat(1000)} timezone: Europe/Berlinn # ${'b'.repeat(1000)}`;
    const diagnostic: Diagnostic = { ...schedule, summary: 'unknown timezone', location: { file: 'long.yaml', line: 1, col: 1012 } };
    const text = renderDiagnostics([diagnostic], { color: false, sources: new Map([['long.yaml', line]]) });
    const [, excerpt, caret] = text.split('\n');
    expect(excerpt).toBe(` 1 | …${'a'.repeat(29)} timezone: Europe/Berlinn # ${'b'.repeat(EXCERPT_WIDTH - 29 - 28)}…`);
    expect(caret).toBe(`   |  ${' '.repeat(40)}^^^^^^^^^^^^^^`);
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

describe('maskUrlCredentials', () => {
  it('masks up to the last @ of an address, from the first letter of its scheme', () => {
    expect(maskUrlCredentials('url: https://ada:s3cret@acme.example.com')).toBe('url: https://<redacted>@acme.example.com');
    expect(maskUrlCredentials('a 9git+ssh://u:p@h/x@y "q://a@b" c://nobody')).toBe('a 9git+ssh://<redacted>@y "q://<redacted>@b" c://nobody');
    expect(maskUrlCredentials('x://a x://b@c ://d@e 1://f@g')).toBe('x://a x://<redacted>@c ://d@e 1://f@g');
  });

  it('masks exactly what the regular expression it replaces masks', () => {
    const reference = (line: string) => line.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s'"]*@/g, '$1<redacted>@');
    const alphabet = ['a', 'B', '1', '+', '.', '-', ':', '/', '//', '://', '@', ' ', "'", '"', '#'];
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let round = 0; round < 20_000; round++) {
      const line = Array.from({ length: 1 + random(14) }, () => alphabet[random(alphabet.length)]).join('');
      expect(maskUrlCredentials(line), line).toBe(reference(line));
    }
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
