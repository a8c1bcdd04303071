// Policy violations as people read them, above the plan (terminal and Markdown) and in apply's
// refusal or override notice. Pure; messages quote config and server names, so every one goes
// through the inert-text helper of its output form.
import { palette } from './palette.js';
import type { PolicyViolation } from '../model/policy.js';
import { markdownCode, markdownText, terminalText } from './inert.js';
import { grouped } from '../domain/numbers.js';

/** Violations listed in Markdown before the rest are counted. */
export const MARKDOWN_VIOLATIONS = 30;

function where(violation: PolicyViolation): string {
  const { position } = violation;
  return position === undefined ? violation.setting : `${position.file}:${position.line}:${position.col} (${violation.setting})`;
}

/** The violations block printed above a plan; empty when there are none. */
export function renderViolations(violations: readonly PolicyViolation[] | undefined, color: boolean, heading?: string): string[] {
  if (violations === undefined || violations.length === 0) return [];
  const colors = palette(color);
  const rules = [...new Set(violations.map((violation) => violation.rule))];
  const lines = [
    colors.red.bold(
      heading ??
        `Policy violations (${violations.length}): apply refuses this plan unless each rule is named: ${rules.map((rule) => `--override-policy ${rule}`).join(' ')}`,
    ),
  ];
  for (const violation of violations) {
    lines.push(`  ${colors.red('✗')} ${colors.bold(violation.rule)}: ${terminalText(violation.message)}`);
    lines.push(colors.dim(`      rule set at ${terminalText(where(violation))}`));
  }
  return [...lines, ''];
}

/** The same block in Markdown, for a pull-request comment or a CI job summary. */
export function renderViolationsMarkdown(violations: readonly PolicyViolation[] | undefined): string[] {
  if (violations === undefined || violations.length === 0) return [];
  const rules = [...new Set(violations.map((violation) => violation.rule))];
  const lines = [
    `#### ⛔ Policy violations (${violations.length})`,
    '',
    `Apply refuses this plan unless each rule is named: ${rules.map((rule) => markdownCode(`--override-policy ${rule}`)).join(' ')}`,
    '',
  ];
  // A bulk change can break a rule thousands of times; the comment stays readable (the JSON has every one).
  for (const violation of violations.slice(0, MARKDOWN_VIOLATIONS)) {
    lines.push(`- **${markdownCode(violation.rule)}**: ${markdownText(violation.message)} (rule set at ${markdownCode(where(violation))})`);
  }
  if (violations.length > MARKDOWN_VIOLATIONS) lines.push(`- … and ${grouped(violations.length - MARKDOWN_VIOLATIONS)} more (\`--json\` lists every one)`);
  return [...lines, ''];
}
