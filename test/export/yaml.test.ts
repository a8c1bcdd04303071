// The YAML writer: the exact text a user gets, and that it reads back as the same values.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configYaml, INLINE_LIST_MAX } from '../../src/export/yaml.js';
import { REGISTRY } from '../../src/kinds/registry.js';
import type { ResourceKind } from '../../src/model/kind.js';
import type { StepKind } from '../../src/model/plan.js';

describe('configYaml', () => {
  it('writes characters a terminal would act on (C1 controls, bidi overrides, zero-width) as escapes that read back the same', () => {
    const description = 'Revenue \u009b31m red\u009b0m \u202eevil\u202c, zero\u200bwidth, \u001b[2J';
    const name = 'fin\u2066ance';
    const text = configYaml({ labels: [{ name, description, color: null, verified: false, homepage: false }] } as never, { schema: undefined, header: [] });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('\\u009b31m');
    expect(text).toContain('\\u202e');
    const parsed = parse(text) as { labels: { name: string; description: string }[] };
    expect(parsed.labels[0]).toMatchObject({ name, description });
  });

  it('writes the schema line, the header, version 1 and each section, quoting colours, schedules and document identifiers', () => {
    const text = configYaml(
      {
        creditControls: { downgradeCredits: 8000, shutoffCredits: null },
        routines: [
          {
            name: "Grace's KPIs",
            owner: 'grace@acme.example',
            description: null,
            prompt: 'Summarise: KPIs # all of them',
            schedule: '0 7 ? * FRI *',
            timezone: 'UTC',
            modelId: '${var.salesModelId}',
            branchId: null,
            topicName: 'orders',
            destination: { type: 'email', recipientEmails: ['grace@acme.example'], userGroupIds: [] },
            paused: true,
          },
        ],
        labels: [{ name: 'finance', color: '#0366d6', description: 'yes', verified: true, homepage: false, documents: ['8f2e1d4c', '12e4'] }],
      },
      { schema: '../schemas/steward.schema.json', header: ['Exported for a test.', '', 'Second paragraph.'] },
    );
    expect(text).toBe(`# yaml-language-server: $schema=../schemas/steward.schema.json
#
# Exported for a test.
#
# Second paragraph.
version: 1

creditControls:
  downgradeCredits: 8000
  shutoffCredits: null

routines:
  - name: Grace's KPIs
    owner: grace@acme.example
    description: null
    prompt: "Summarise: KPIs # all of them"
    schedule: "0 7 ? * FRI *"
    timezone: UTC
    modelId: \${var.salesModelId}
    branchId: null
    topicName: orders
    destination:
      type: email
      recipientEmails: [grace@acme.example]
    paused: true

labels:
  - name: finance
    color: "#0366d6"
    description: yes
    verified: true
    homepage: false
    documents: ["8f2e1d4c", "12e4"]
`);
    expect(parse(text).labels[0]).toEqual({ name: 'finance', color: '#0366d6', description: 'yes', verified: true, homepage: false, documents: ['8f2e1d4c', '12e4'] });
    expect(parse(text).routines[0].prompt).toBe('Summarise: KPIs # all of them');
  });

  it('writes long lists one item per line, and long text on one line', () => {
    const documents = Array.from({ length: INLINE_LIST_MAX + 1 }, (_, index) => `r000${index}`);
    const prompt = 'word '.repeat(60).trim();
    const text = configYaml({ labels: [{ name: 'reports', documents, description: prompt }] }, { schema: 's.json', header: [] });
    expect(text).toContain(`    documents:\n${documents.map((identifier) => `      - "${identifier}"\n`).join('')}`);
    expect(text).toContain(`description: ${prompt}\n`);
    expect(parse(text).labels[0].documents).toEqual(documents);
  });

  it("styles a kind's fields within its own section only, as its export facet names them", () => {
    // GIVEN labels that quote their names and write short `owners` lists inline
    const labels = REGISTRY.get('labels')!;
    const registry = new Map<StepKind, ResourceKind>(REGISTRY);
    registry.set('labels', { ...labels, export: { ...labels.export!, styles: { quoted: ['name'], inline: ['owners'] } } });
    // WHEN another section, whose kind names neither, has fields of those names
    const text = configYaml(
      { userGroupCreditLimits: [{ name: 'Digest', owners: ['a', 'b'] }], labels: [{ name: 'finance', owners: ['a', 'b'] }] } as never,
      { schema: undefined, header: [] },
      registry,
    );
    // THEN only the labels' are styled
    expect(text).toContain('userGroupCreditLimits:\n  - name: Digest\n    owners:\n      - a\n      - b\n');
    expect(text).toContain('labels:\n  - name: "finance"\n    owners: [a, b]\n');
  });
});
