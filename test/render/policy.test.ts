// Policy violations as rendered above a plan: the rule, the message and where the rule is set, in
// the terminal and in Markdown, with names from the config or the server printed inert.
import { describe, expect, it } from 'vitest';
import type { PolicyViolation } from '../../src/model/policy.js';
import { MARKDOWN_VIOLATIONS, renderViolations, renderViolationsMarkdown } from '../../src/render/policy.js';

const violation = (message: string, rule: PolicyViolation['rule'] = 'routines.recipientDomains'): PolicyViolation => ({
  rule,
  message,
  objects: ['routines//x'],
  setting: 'policies.routines.recipientDomains',
  position: { file: 'steward/policies.yaml', line: 4, col: 23 },
});

describe('policy violations', () => {
  it('print the rule, the message and the position, under a heading that names the override', () => {
    expect(renderViolations([violation('routines "Digest": recipient eve@gmail.example is outside the allowed domains (acme.example)')], false).join('\n')).toBe(
      [
        'Policy violations (1): apply refuses this plan unless each rule is named: --override-policy routines.recipientDomains',
        '  ✗ routines.recipientDomains: routines "Digest": recipient eve@gmail.example is outside the allowed domains (acme.example)',
        '      rule set at steward/policies.yaml:4:23 (policies.routines.recipientDomains)',
        '',
      ].join('\n'),
    );
    expect(renderViolations([], false)).toEqual([]);
  });

  it('keep hostile names inert on a terminal and in Markdown', () => {
    const hostile = violation('routines "\u001b[2J\u001b[31mx</details>`@team **y**": recipient a@b.example is outside');
    const text = renderViolations([hostile], false).join('\n');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\x1b[2J');
    const markdown = renderViolationsMarkdown([hostile]).join('\n');
    expect(markdown).not.toContain('</details>');
    expect(markdown).not.toContain('\u001b');
    expect(markdown).toContain('&lt;/details&gt;');
    expect(markdown).toContain('&#64;team');
    expect(markdown).toContain('\\*\\*y\\*\\*');
  });

  it('list at most MARKDOWN_VIOLATIONS in Markdown and count the rest', () => {
    const many = Array.from({ length: MARKDOWN_VIOLATIONS + 7 }, (_, index) => violation(`limit ${index}`, 'creditLimits'));
    const markdown = renderViolationsMarkdown(many);
    expect(markdown.filter((line) => line.startsWith('- **'))).toHaveLength(MARKDOWN_VIOLATIONS);
    expect(markdown).toContain('- … and 7 more (`--json` lists every one)');
    expect(markdown[0]).toBe(`#### ⛔ Policy violations (${MARKDOWN_VIOLATIONS + 7})`);
  });
});
