import { describe, expect, it } from 'vitest';
import { foldedStepCount, renderPlan } from '../../src/render/human.js';
import { MARKDOWN_LIMIT, renderPlanMarkdown } from '../../src/render/markdown.js';
import { summarize, type Plan, type PlanStep } from '../../src/model/plan.js';
import { everyActionPlan } from '../plan/everyAction.js';

const ANSI = /\u001b\[[0-9;]*m/g;

function bulkPlan(count: number): Plan {
  const steps: PlanStep[] = Array.from({ length: count }, (_, index) => ({
    id: `userCreditLimits/u-${index}`,
    kind: 'userCreditLimits',
    key: `analyst${String(index).padStart(4, '0')}@acme.example`,
    action: 'update',
    dependsOn: [],
    ref: { userId: `u-${index}` },
    before: { creditLimit: 50 },
    after: { creditLimit: 75 },
    fields: [{ path: 'creditLimit', before: 50, after: 75 }],
  }));
  return { ...everyActionPlan().plan, steps, summary: summarize(steps), warnings: [] };
}

describe('human plan', () => {
  it('renders every kind and action, destructive steps first', () => {
    expect(renderPlan(everyActionPlan().plan, { color: false })).toMatchInlineSnapshot(`
      "steward plan for environment production (https://acme.example.com)

      Warning: a replaced routine is created anew and the old one deleted: its run history is lost, and the new one counts toward its owner's active routines (a create past the limit fails with 429, and the old routine is then kept)

      6 destructive changes:
        -   user credit limit ken@acme.example: 100 → default (reset to the default limit)
        -   label "obsolete" off document d9 "Scratchpad" (the label is being deleted)
        -   label "obsolete" off folder "sandbox" (the label is being deleted)
        -   label "obsolete" (pruned: not in the config)
        -   routine "Old experiment" (pruned: not in the config)
        -/+ routine "Pipeline check" (topicName cannot change in place by the documented PUT)

      ~   credit controls
            shutoffCredits: 10,000 → 12,000
            entityGroupDefaultCredits: unlimited → 500

      ~   label "board-kpis" (renamed from "legacy-kpis"; documents and folders keep it)
            name: "legacy-kpis" → "board-kpis"

      +   label "certified"
            color: "#2da44e"
            verified: true

      +   user credit limit ada@acme.example: 300

      ~   user credit limit grace@acme.example: 500 → unlimited

      -   user credit limit ken@acme.example: 100 → default (reset to the default limit)

      +   routine "Monthly recap"
            prompt: "Summarise revenue."
            schedule: "0 9 ? * MON *"
            timezone: "UTC"
            modelId: "m-sales"
            destination.type: "slack"
            destination.recipientId: "U0MARKETING"
            destination.slackRecipientType: "users"
            paused: false

      -/+ routine "Pipeline check" (topicName cannot change in place by the documented PUT)
            topicName: "pipeline" → "orders"

      ~   routine "Weekly digest"
            schedule: "0 9 ? * MON *" → "0 8 ? * MON *"

      +   label "certified" on document d1

      -   label "obsolete" off document d9 "Scratchpad" (the label is being deleted)

      +   label "certified" on folder "finance"

      -   label "obsolete" off folder "sandbox" (the label is being deleted)

      -   label "obsolete" (pruned: not in the config)

      -   routine "Old experiment" (pruned: not in the config)

      Plan: 5 to add, 4 to change, 1 to replace, 5 to destroy.
      Planning made 9 API requests.
      "
    `);
  });

  it('colours only when asked, and the words stay the same', () => {
    const { plan } = everyActionPlan();
    const coloured = renderPlan(plan, { color: true });
    expect(coloured).toMatch(ANSI);
    expect(coloured.replace(ANSI, '')).toBe(renderPlan(plan, { color: false }));
  });

  it('says so when there is nothing to do', () => {
    const plan = { ...everyActionPlan().plan, steps: [], warnings: [], summary: summarize([]), requests: 4 };
    expect(renderPlan(plan, { color: false })).toBe(
      'steward plan for environment production (https://acme.example.com)\n\nNo changes. The live state matches the configuration.\n\nPlanning made 4 API requests.\n',
    );
  });

  it('folds a large bulk change to a count and the first few, unless --show-all', () => {
    const text = renderPlan(bulkPlan(1204), { color: false });
    expect(text).toContain('~ 1,204 user credit limits\n    ~   user credit limit analyst0000@acme.example: 50 → 75\n');
    expect(text).toContain('    … and 1,199 more, all to change (--show-all lists every one)\n');
    expect(renderPlan(bulkPlan(1204), { color: false, showAll: true })).toContain('analyst1203@acme.example');
  });

  it('counts what the listing folds away, so the approval prompt can say how to see it', () => {
    expect(foldedStepCount(bulkPlan(1204), false)).toBe(1199);
    expect(foldedStepCount(bulkPlan(10), false)).toBe(0);
    expect(foldedStepCount(bulkPlan(1204), true)).toBe(0);
  });
});

describe('markdown plan', () => {
  it('renders every kind and action with collapsible details', () => {
    expect(renderPlanMarkdown(everyActionPlan().plan)).toMatchInlineSnapshot(`
      "### steward plan for \`production\`

      **Plan: 5 to add, 4 to change, 1 to replace, 5 to destroy.**

      > ⚠️ a replaced routine is created anew and the old one deleted: its run history is lost, and the new one counts toward its owner's active routines (a create past the limit fails with 429, and the old routine is then kept)

      #### ⚠️ 6 destructive changes

      - \`-\` user credit limit ken@acme.example: 100 → default — reset to the default limit
      - \`-\` label "obsolete" off document d9 "Scratchpad" — the label is being deleted
      - \`-\` label "obsolete" off folder "sandbox" — the label is being deleted
      - \`-\` label "obsolete" — pruned: not in the config
      - \`-\` routine "Old experiment" — pruned: not in the config
      - \`-/+\` routine "Pipeline check" — topicName cannot change in place by the documented PUT

      <details><summary><code>~</code> 1 credit controls</summary>

      \`\`\`diff
      ! credit controls
      !     shutoffCredits: 10,000 → 12,000
      !     entityGroupDefaultCredits: unlimited → 500
      \`\`\`

      </details>

      <details><summary><code>~</code> 1 label</summary>

      \`\`\`diff
      ! label "board-kpis" (renamed from "legacy-kpis"; documents and folders keep it)
      !     name: "legacy-kpis" → "board-kpis"
      \`\`\`

      </details>

      <details><summary><code>+</code> 1 label</summary>

      \`\`\`diff
      + label "certified"
      +     color: "#2da44e"
      +     verified: true
      \`\`\`

      </details>

      <details><summary><code>+</code> 1 user credit limit</summary>

      \`\`\`diff
      + user credit limit ada@acme.example: 300
      \`\`\`

      </details>

      <details><summary><code>~</code> 1 user credit limit</summary>

      \`\`\`diff
      ! user credit limit grace@acme.example: 500 → unlimited
      \`\`\`

      </details>

      <details><summary><code>-</code> 1 user credit limit</summary>

      \`\`\`diff
      - user credit limit ken@acme.example: 100 → default (reset to the default limit)
      \`\`\`

      </details>

      <details><summary><code>+</code> 1 routine</summary>

      \`\`\`diff
      + routine "Monthly recap"
      +     prompt: "Summarise revenue."
      +     schedule: "0 9 ? * MON *"
      +     timezone: "UTC"
      +     modelId: "m-sales"
      +     destination.type: "slack"
      +     destination.recipientId: "U0MARKETING"
      +     destination.slackRecipientType: "users"
      +     paused: false
      \`\`\`

      </details>

      <details><summary><code>-/+</code> 1 routine</summary>

      \`\`\`diff
      ! routine "Pipeline check" (topicName cannot change in place by the documented PUT)
      !     topicName: "pipeline" → "orders"
      \`\`\`

      </details>

      <details><summary><code>~</code> 1 routine</summary>

      \`\`\`diff
      ! routine "Weekly digest"
      !     schedule: "0 9 ? * MON *" → "0 8 ? * MON *"
      \`\`\`

      </details>

      <details><summary><code>+</code> 1 document label</summary>

      \`\`\`diff
      + label "certified" on document d1
      \`\`\`

      </details>

      <details><summary><code>-</code> 1 document label</summary>

      \`\`\`diff
      - label "obsolete" off document d9 "Scratchpad" (the label is being deleted)
      \`\`\`

      </details>

      <details><summary><code>+</code> 1 folder label</summary>

      \`\`\`diff
      + label "certified" on folder "finance"
      \`\`\`

      </details>

      <details><summary><code>-</code> 1 folder label</summary>

      \`\`\`diff
      - label "obsolete" off folder "sandbox" (the label is being deleted)
      \`\`\`

      </details>

      <details><summary><code>-</code> 1 label</summary>

      \`\`\`diff
      - label "obsolete" (pruned: not in the config)
      \`\`\`

      </details>

      <details><summary><code>-</code> 1 routine</summary>

      \`\`\`diff
      - routine "Old experiment" (pruned: not in the config)
      \`\`\`

      </details>

      <sub>Environment \`production\` at https://acme.example.com · 9 API requests · 2026-11-22T00:00:00.000Z</sub>
      "
    `);
  });

  it('stays under the comment limit by summarising', () => {
    const text = renderPlanMarkdown(bulkPlan(20_000));
    expect(text.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(text).toContain('**Plan: 0 to add, 20000 to change, 0 to replace, 0 to destroy.**');
    expect(text).toMatch(/… and [\d,]+ more \(a plan saved with `--out` lists every step\)/);
  });
});
