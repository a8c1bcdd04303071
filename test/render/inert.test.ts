// Hostile names (a label someone named in the app, a document, a server message) go through
// every renderer and come out inert: on a terminal no escape sequence, line break or
// bidirectional override survives; in Markdown no code block closes early and no HTML, image or
// mention opens; annotations stay one command per finding; JSON parses back to the same text.
import { describe, expect, it } from 'vitest';
import type { CheckedSteps, StaleStep, StepResult } from '../../src/engine/executor.js';
import type { Diagnostic } from '../../src/config/types.js';
import { summarize, type Plan, type PlanStep } from '../../src/model/plan.js';
import { githubAnnotations, renderDiagnostics } from '../../src/render/diagnostics.js';
import { renderApplyReport, renderDryRun, renderPlan, renderStale } from '../../src/render/human.js';
import { annotationData, inertJson, markdownCode, markdownText, terminalText } from '../../src/render/inert.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { everyActionPlan } from '../plan/everyAction.js';

/** Erases the line above, closes a Markdown fence, opens HTML, mentions a team, reverses text, and sends an 8-bit CSI. */
const HOSTILE = 'ok\u001b[2K\u001b[1A\u001b[2K\r\n```\n<img src=//e.vil onerror=alert(1)>`x` @security-team [link](//e.vil) \u202egnp.exe\u009b31m</details>';

/** Raw characters that must never reach a terminal. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** Every string of the plan's steps made hostile, as a compromised server or a careless colleague could. */
function hostilePlan(): Plan {
  const taint = (value: unknown): unknown => {
    if (typeof value === 'string') return `${value}${HOSTILE}`;
    if (Array.isArray(value)) return value.map(taint);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, taint(child)]));
    return value;
  };
  const { plan } = everyActionPlan();
  const steps = plan.steps.map((step) => ({
    ...(taint(step) as PlanStep),
    id: step.id,
    kind: step.kind,
    action: step.action,
    dependsOn: step.dependsOn,
    ...(step.action === 'update' || step.action === 'replace' ? { fields: step.fields.map((field) => ({ ...field, path: field.path, before: taint(field.before), after: taint(field.after) })) } : {}),
  })) as PlanStep[];
  return {
    ...plan,
    steps,
    summary: summarize(steps),
    warnings: [{ code: 'documentLabels.missing-document', message: `document ${HOSTILE} does not exist` }],
    promotion: undefined,
  };
}

/** Lines as a terminal shows them: the text must hold no raw control character, so nothing moves. */
function expectTerminalInert(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
  // The hostile line breaks stayed escapes: no line starts with what followed them.
  for (const line of text.split('\n')) {
    expect(line.trimStart()).not.toMatch(/^(```|<img)/);
  }
  expect(text).toContain('\\x1b[2K');
}

/** Markdown: fences only where the renderer put them, and outside them no raw HTML, image, link or mention. */
function expectMarkdownInert(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) {
      expect(line).toBe(fenced ? '```' : '```diff');
      fenced = !fenced;
      continue;
    }
    if (fenced) continue; // inside a code block nothing is interpreted, and nothing can end it
    // Code spans hold their text literally; what is left is prose, where only the renderer's own
    // tags may open, and a name can neither link nor mention.
    const prose = line.replace(/(?<!\\)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
    for (const tag of prose.matchAll(/<\/?([A-Za-z][\w-]*)/g)) expect(['details', 'summary', 'code', 'sub']).toContain(tag[1]);
    if (prose.includes('</details>')) expect(prose).toBe('</details>');
    expect(prose).not.toMatch(/(^|[^\w&#;])@security-team/);
    expect(prose).not.toMatch(/(?<!\\)\[link\]\(/);
  }
  expect(fenced).toBe(false);
}

describe('inert rendering of hostile names', () => {
  const plan = hostilePlan();

  it('terminal plan', () => {
    for (const color of [false, true]) {
      const text = renderPlan(plan, { color, showAll: true }).replace(/\u001b\[[0-9;]*m/g, (sgr) => (color ? '' : sgr));
      expectTerminalInert(text);
    }
  });

  it('drift report', () => {
    expectTerminalInert(renderPlan(plan, { color: false, purpose: 'drift' }));
  });

  it('promotion heading', () => {
    const promoted: Plan = { ...plan, promotion: { from: `playground${HOSTILE}`, fromBaseUrl: `https://e.vil/${HOSTILE}`, sourceDigest: 'x' } };
    expectTerminalInert(renderPlan(promoted, { color: false }));
    expectMarkdownInert(renderPlanMarkdown(promoted));
  });

  it('Markdown plan and drift report', () => {
    expectMarkdownInert(renderPlanMarkdown(plan));
    expectMarkdownInert(renderPlanMarkdown(plan, 'drift'));
  });

  it('JSON plan: parses back to the same text, with nothing raw that a terminal would obey', () => {
    const json = inertJson(JSON.stringify(plan, null, 2));
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(plan)));
  });

  it('dry run, stale plan and apply report', () => {
    const steps = plan.steps;
    const checked: CheckedSteps = { runnable: steps.slice(0, 3), alreadyApplied: steps.slice(3, 5), stale: [] };
    expectTerminalInert(renderDryRun(checked, 7, { color: false }));
    const stale: StaleStep[] = steps.slice(0, 2).map((step) => ({ step, detail: `live is now ${HOSTILE}` }));
    expectTerminalInert(renderStale(stale, { color: false }));
    const results: StepResult[] = [
      { step: steps[0]!, outcome: { status: 'done', detail: HOSTILE } },
      { step: steps[1]!, outcome: { status: 'failed', error: `400 Bad Request: ${HOSTILE}` } as StepResult['outcome'] },
      { step: steps[2]!, outcome: { status: 'skipped', reason: HOSTILE } },
      { step: steps[3]!, outcome: { status: 'stale', reason: HOSTILE } },
      { step: steps[4]!, outcome: { status: 'already-applied', detail: HOSTILE } },
    ];
    expectTerminalInert(renderApplyReport({ results, alreadyApplied: [steps[5]!], requests: { reading: 3, writing: 4 } }, { color: false }));
    const stopped = [{ step: steps[6]!, outcome: { status: 'skipped' as const, reason: `stopped ${HOSTILE}`, notStarted: true as const } }];
    expectTerminalInert(
      renderApplyReport({ results: stopped, alreadyApplied: [], requests: { reading: 1, writing: 1 } }, { color: false, stopped: { kind: 'auth', status: 401, error: HOSTILE } }),
    );
  });

  it('validation diagnostics: message, hint and the source line of the code frame', () => {
    const diagnostic: Diagnostic = {
      severity: 'error',
      code: 'label.name',
      summary: `label name ${HOSTILE} cannot be used`,
      hint: `write ${HOSTILE}`,
      location: { file: 'steward.yaml', line: 2, col: 11 },
    };
    const source = `labels:\n  - name: ${HOSTILE.replace(/\n/g, ' ')}\n`;
    expectTerminalInert(renderDiagnostics([diagnostic], { color: false, sources: () => source }));
  });

  it('GitHub annotations: one workflow command per finding, nothing raw', () => {
    const diagnostics: Diagnostic[] = [1, 2].map((line) => ({
      severity: 'error',
      code: 'label.name',
      summary: `label ${HOSTILE}`,
      hint: HOSTILE,
      location: { file: `labels,${HOSTILE}.yaml`, line, col: 3 },
    }));
    const text = githubAnnotations(diagnostics);
    const lines = text.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^::error file=[^,]*,line=\d+,col=3,title=steward label\.name::/);
    expect(text).not.toMatch(RAW_CONTROL);
  });
});

describe('the helpers', () => {
  it('terminalText writes every control and invisible character as a visible escape', () => {
    expect(terminalText('a\u001b[2Kb\nc\td\u0007\u009b\u202e')).toBe('a\\x1b[2Kb\\nc\\td\\x07\\x9b\\u202e');
    expect(terminalText('Umsatzübersicht, 売上')).toBe('Umsatzübersicht, 売上');
  });

  it('markdownText escapes HTML, Markdown that opens something, and mentions, but not e-mail addresses', () => {
    expect(markdownText('<b>x</b> `y` *z* [a](b) @team grace@acme.example')).toBe('&lt;b&gt;x&lt;/b&gt; \\`y\\` \\*z\\* \\[a\\](b) &#64;team grace@acme.example');
  });

  it('markdownCode fences a code span longer than any backtick run inside', () => {
    expect(markdownCode('a``b')).toBe('```a``b```');
    expect(markdownCode('`x')).toBe('`` `x ``');
    expect(markdownCode('plain')).toBe('`plain`');
  });

  it('annotationData keeps GitHub’s line encoding and escapes the rest', () => {
    expect(annotationData('100%\r\nnext\u001b[31m')).toBe('100%25%0D%0Anext\\x1b[31m');
  });
});
