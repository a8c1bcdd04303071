// The plan's exposure (the most credits the configuration allows per period once applied) as
// words: one headline and its parts, shown in the terminal under the summary, in Markdown under the impacts.
// Always called an estimate, with its rule: the vendor does not say how limits combine. Pure.
import type { Exposure } from '../model/plan.js';
import { grouped } from '../domain/numbers.js';
import { markdownText, terminalText } from './inert.js';
import type { Palette } from './palette.js';

function credits(value: number | null): string {
  return value === null ? 'unlimited' : `${grouped(value)} credits`;
}

function users(count: number): string {
  return `${grouped(count)} user${count === 1 ? '' : 's'}`;
}

/** `Exposure (an estimate): at most 7,450 credits per period, above the account's limit of 6,000`. */
export function exposureHeadline(exposure: Exposure): string {
  const partial = exposure.notCounted.length > 0;
  const amount = exposure.credits === null ? 'unlimited credits' : `${partial ? 'at least' : 'at most'} ${credits(exposure.credits)}`;
  const account = exposure.accountCreditLimit;
  const versus =
    account === undefined ? '' : exposure.credits === null || exposure.credits > account ? `, above the account's limit of ${grouped(account)}` : `, within the account's limit of ${grouped(account)}`;
  return `Exposure (an estimate): ${amount} per period${versus}`;
}

/** The parts, the rule and what was not counted, one line each. */
export function exposureDetails(exposure: Exposure): string[] {
  const parts = [`individual limits: ${users(exposure.individual.users)}, ${credits(exposure.individual.credits)}`];
  if (exposure.groups !== undefined) parts.push(`user group limits: ${users(exposure.groups.users)}, ${credits(exposure.groups.credits)}`);
  if (exposure.default !== undefined) {
    const { perUser, users: count, credits: total } = exposure.default;
    parts.push(`the default: ${perUser === null ? 'unlimited' : grouped(perUser)} × ${users(count)}, ${credits(total)}`);
  }
  return [
    parts.join(' · '),
    `rule: ${exposure.rule} (the vendor does not say how they combine)`,
    ...(exposure.notCounted.length === 0 ? [] : [`not counted: ${exposure.notCounted.join('; ')}`]),
  ];
}

/** Terminal lines (none without an exposure). */
export function renderExposure(exposure: Exposure | undefined, colors: Palette): string[] {
  if (exposure === undefined) return [];
  return [colors.bold(terminalText(exposureHeadline(exposure))), ...exposureDetails(exposure).map((line) => `  ${colors.dim(terminalText(line))}`), ''];
}

/** Markdown lines (none without an exposure). */
export function renderExposureMarkdown(exposure: Exposure | undefined): string[] {
  if (exposure === undefined) return [];
  return [`**${markdownText(exposureHeadline(exposure))}**`, '', ...exposureDetails(exposure).map((line) => `- ${markdownText(line)}`), ''];
}
