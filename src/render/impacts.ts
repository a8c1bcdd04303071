// The plan's impacts on this period's usage, in the terminal and in Markdown: shown above the
// steps, since a limit that cuts someone off at once is what a reviewer must see first. Pure;
// foreign text (e-mails, group names) passes through the inert helpers.
import type { Plan } from '../model/plan.js';
import { markdownText, terminalText } from './inert.js';
import type { Palette } from './palette.js';

const HEADING = "Impact on this period's usage";

/** Terminal lines for the plan's impacts (none when it has none). */
export function renderImpacts(plan: Pick<Plan, 'impacts'>, colors: Palette): string[] {
  const impacts = plan.impacts ?? [];
  if (impacts.length === 0) return [];
  return [colors.yellow.bold(`${HEADING} (${impacts.length}):`), ...impacts.map((impact) => `  ${colors.yellow('!')} ${terminalText(impact.message)}`), ''];
}

/** Markdown lines for the plan's impacts (none when it has none). */
export function renderImpactsMarkdown(plan: Pick<Plan, 'impacts'>): string[] {
  const impacts = plan.impacts ?? [];
  if (impacts.length === 0) return [];
  return [`#### ⚠️ ${HEADING} (${impacts.length})`, '', ...impacts.map((impact) => `- ${markdownText(impact.message)}`), ''];
}
