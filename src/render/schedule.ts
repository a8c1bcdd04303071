// A week of routine runs as a heatmap: days down, hours across, the number of routines starting
// in each hour (terminal: shaded when coloured; Markdown: a table). Hours where more start than
// `routines.maxRunsPerHour` allows are marked. Pure: RunWeek → string.
import type { RunWeek } from '../domain/runWeek.js';
import { grouped } from '../domain/numbers.js';
import { markdownText, terminalText } from './inert.js';
import { palette, type Palette } from './palette.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** `Mon 23 Nov` */
function dayLabel(day: RunWeek['days'][number]): string {
  const [, month, date] = day.date.split('-').map(Number) as [number, number, number];
  return `${day.weekday} ${String(date).padStart(2, ' ')} ${MONTHS[month - 1]}`;
}

/** `Routine runs per hour, 23–29 Nov 2026 (UTC): 12 runs of 4 routines; 1 paused routine not counted` */
export function weekHeadline(week: RunWeek): string {
  const first = week.days[0]!;
  const last = week.days.at(-1)!;
  const paused = week.paused === 0 ? '' : `; ${week.paused} paused routine${week.paused === 1 ? '' : 's'} not counted`;
  return `Routine runs per hour, ${dayLabel(first).replace(/ +/g, ' ')} – ${dayLabel(last).replace(/ +/g, ' ')} ${last.date.slice(0, 4)} (${week.timezone}): ${grouped(week.runs)} run${week.runs === 1 ? '' : 's'} of ${week.routines} routine${week.routines === 1 ? '' : 's'}${paused}`;
}

/** The heatmap for a terminal; `limit`: routines.maxRunsPerHour, whose crowded hours are marked `!`. */
export function renderRunWeek(week: RunWeek, options: { color: boolean; limit?: number | undefined }): string {
  const colors = palette(options.color);
  const most = Math.max(1, ...week.days.flatMap((day) => day.hours));
  const lines = [colors.bold(terminalText(weekHeadline(week))), '', `${' '.repeat(10)} ${Array.from({ length: 24 }, (_, hour) => two(hour)).join(' ')}`];
  for (const day of week.days) {
    const cells = day.hours.map((count) => cell(count, most, options.limit, colors));
    lines.push(`${dayLabel(day)} ${cells.join('')}`);
  }
  const crowded = week.days.flatMap((day) => day.hours.filter((count) => options.limit !== undefined && count > options.limit)).length;
  lines.push('', colors.dim('· none, a number: routines starting in that hour'));
  if (options.limit !== undefined) {
    lines.push(crowded === 0 ? `No hour has more than ${options.limit} routine start${options.limit === 1 ? '' : 's'} (routines.maxRunsPerHour).` : colors.red(`${crowded} hour${crowded === 1 ? '' : 's'} marked ! ha${crowded === 1 ? 's' : 've'} more than ${options.limit} routine start${options.limit === 1 ? '' : 's'} (routines.maxRunsPerHour).`));
  }
  return `${lines.join('\n')}\n`;
}

/** Three characters: the count (or `·`) right-aligned, then `!` for a crowded hour; busier hours brighter. */
function cell(count: number, most: number, limit: number | undefined, colors: Palette): string {
  const over = limit !== undefined && count > limit;
  const text = `${count === 0 ? ' ·' : count > 99 ? '99' : String(count).padStart(2, ' ')}${over ? '!' : ' '}`;
  if (count === 0) return colors.dim(text);
  if (over) return colors.red.bold(text);
  return count * 2 > most ? colors.yellow.bold(text) : colors.yellow(text);
}

/** The heatmap as a Markdown table (a pull-request comment): empty cells for none, crowded hours in bold with ⚠️. */
export function renderRunWeekMarkdown(week: RunWeek, limit?: number): string[] {
  const lines = [`**${markdownText(weekHeadline(week))}**`, ''];
  lines.push(`| | ${Array.from({ length: 24 }, (_, hour) => two(hour)).join(' | ')} |`);
  lines.push(`|---|${Array.from({ length: 24 }, () => '--:').join('|')}|`);
  for (const day of week.days) {
    const cells = day.hours.map((count) => (count === 0 ? '' : limit !== undefined && count > limit ? `**${count}**⚠️` : String(count)));
    lines.push(`| ${dayLabel(day).replace(/ +/g, ' ')} | ${cells.join(' | ')} |`);
  }
  if (limit !== undefined) lines.push('', `Hours marked ⚠️ have more than ${limit} routine start${limit === 1 ? '' : 's'} (\`routines.maxRunsPerHour\`).`);
  return [...lines, ''];
}
