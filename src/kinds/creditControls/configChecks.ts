// The credit controls' checks of what the schema cannot say: the two thresholds in the order AI
// meets them. Declared with the section's schema (configSchema.ts); every load runs them
// (config/semantic.ts).
import type { Findings } from '../../config/findings.js';
import { isRecord } from '../../config/sources.js';

/** `downgradeCredits` no higher than `shutoffCredits`: AI downgrades before it shuts off. */
export function checkCreditControls(config: Record<string, unknown>, findings: Findings): void {
  const section = config.creditControls;
  if (!isRecord(section)) return;
  const { downgradeCredits, shutoffCredits } = section;
  if (typeof downgradeCredits === 'number' && typeof shutoffCredits === 'number' && downgradeCredits > shutoffCredits) {
    findings.add(
      'creditControls.order',
      ['creditControls', 'downgradeCredits'],
      `\`downgradeCredits\` (${downgradeCredits}) must not exceed \`shutoffCredits\` (${shutoffCredits})`,
      { hint: 'AI downgrades to a cheaper model before it shuts off: lower downgradeCredits or raise shutoffCredits' },
    );
  }
}
