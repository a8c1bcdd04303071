// The words a promotion plan (`steward diff --against`) uses instead of a plan's: where its
// desired state came from. Shared by the terminal and Markdown renderers; pure.
import type { Plan } from '../model/plan.js';
import { markdownCode, terminalText } from './inert.js';

/** The heading of a promotion plan, or undefined for any other plan. */
export function promotionHeading(plan: Plan, format: 'text' | 'markdown'): string | undefined {
  const promotion = plan.promotion;
  if (promotion === undefined) return undefined;
  return format === 'text'
    ? terminalText(`steward promotion from ${promotion.from} (${promotion.fromBaseUrl}) to ${plan.environment} (${plan.baseUrl})`)
    : `steward promotion from ${markdownCode(promotion.from)} to ${markdownCode(plan.environment)}`;
}

/** What an empty promotion plan means, or undefined for any other plan. */
export function promotionNoChanges(plan: Plan): string | undefined {
  return plan.promotion === undefined ? undefined : terminalText(`${plan.environment} matches the live state of ${plan.promotion.from}.`);
}
