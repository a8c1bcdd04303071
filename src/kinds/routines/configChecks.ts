// The routines' checks of what the schema cannot say: names, prompts, owners, schedules and
// zones, model and branch ids, destinations (e-mails, group ids, Slack ids), and the names that
// refer to other things (models, branches, former names), and the fields `ignore` may name but an
// environment updating by PUT refuses. Declared with the section's schema (configSchema.ts); every
// load runs them (config/semantic.ts, config/ignore.ts).
import { checkEmail, type Findings } from '../../config/findings.js';
import { isRecord } from '../../config/sources.js';
import { didYouMean, listNames } from '../../config/suggest.js';
import type { ConfigPath } from '../../config/types.js';
import { ROUTINE_NAME_MAX, SLACK_ID_RULE, SLACK_RECIPIENT_PATTERN, UUID_PATTERN, characterCount, emailKey } from '../../domain/rules.js';
import { canonicalSchedule, checkSchedule, checkTimeZone, scheduleSpacingProblem } from '../../domain/schedule.js';

/**
 * Each routine's own fields: a name declared once and within the limit, a prompt, an owner's
 * e-mail, a schedule that runs and that the server keeps as written, a zone, model and branch ids,
 * and where it delivers.
 */
export function checkRoutines(config: Record<string, unknown>, findings: Findings): void {
  const section = config.routines;
  if (!Array.isArray(section)) return;
  const names = new Map<string, ConfigPath>();
  // Hundreds of routines share a few schedules: each distinct one is checked once, at one clock.
  const now = new Date();
  const schedules = new Map<string, ReturnType<typeof checkSchedule>>();
  section.forEach((routine, index) => {
    if (!isRecord(routine)) return;
    const path: ConfigPath = ['routines', index];
    const rawName = findings.text(routine, 'name', path);
    const name = rawName !== undefined && checkName(findings, [...path, 'name'], rawName, 'routine name', 'routine') ? rawName : undefined;
    const prompt = findings.text(routine, 'prompt', path);
    if (prompt !== undefined) checkPrompt(findings, [...path, 'prompt'], prompt);
    const topicName = findings.text(routine, 'topicName', path);
    if (topicName !== undefined) checkName(findings, [...path, 'topicName'], topicName, 'topic name', 'routine');
    if (name !== undefined) {
      const first = names.get(name);
      if (first !== undefined) {
        findings.add('routine.duplicate', [...path, 'name'], `routine \`${name}\` is declared twice; the first declaration is at ${findings.context.describe(first)}`, {
          hint: 'routines are identified by name: rename one of them',
        });
      } else names.set(name, [...path, 'name']);
      const length = characterCount(name);
      if (length > ROUTINE_NAME_MAX) {
        findings.add('routine.name', [...path, 'name'], `routine name is ${length} characters long; the limit is ${ROUTINE_NAME_MAX}`);
      }
    }
    const owner = findings.text(routine, 'owner', path);
    if (owner !== undefined) checkEmail(findings, [...path, 'owner'], owner, 'owner');
    const schedule = findings.text(routine, 'schedule', path);
    if (schedule !== undefined) {
      const spacing = scheduleSpacingProblem(schedule);
      if (spacing !== undefined) {
        findings.add('routine.scheduleSpacing', [...path, 'schedule'], `schedule ${JSON.stringify(schedule)} ${spacing}: the server stores it normalised, so every plan would show it as a change`, {
          hint: `write ${JSON.stringify(canonicalSchedule(schedule))}`,
        });
      }
      let result = schedules.get(schedule);
      if (result === undefined) schedules.set(schedule, (result = checkSchedule(schedule, now)));
      if (!result.ok) {
        const hint = scheduleHint(result.reason);
        findings.add('routine.schedule', [...path, 'schedule'], `invalid schedule \`${schedule}\`: ${result.reason}`, hint === undefined ? {} : { hint });
      }
    }
    const timezone = findings.text(routine, 'timezone', path);
    if (timezone !== undefined) {
      const result = checkTimeZone(timezone);
      if (!result.ok) {
        const hint = result.hint ?? didYouMean(timezone, Intl.supportedValuesOf('timeZone'));
        findings.add('routine.timezone', [...path, 'timezone'], result.reason, hint === undefined ? {} : { hint });
      }
    }
    const modelId = findings.text(routine, 'modelId', path);
    if (modelId !== undefined && !UUID_PATTERN.test(modelId)) {
      findings.add('routine.modelId', [...path, 'modelId'], `\`modelId\` must be a model id (a uuid), found ${JSON.stringify(modelId)}`, {
        hint: 'name the model instead (`model: Sales`): names are the same in every deployment, ids are not',
      });
    }
    const branchId = findings.text(routine, 'branchId', path);
    if (branchId !== undefined && !UUID_PATTERN.test(branchId)) {
      findings.add('routine.branchId', [...path, 'branchId'], `\`branchId\` must be a branch id (a uuid) or null, found ${JSON.stringify(branchId)}`);
    }
    if (isRecord(routine.destination)) checkDestination(routine.destination, [...path, 'destination'], name, findings);
  });
}

// A prompt may span lines (a YAML block ends it with a line break), but not be blank or start or
// end with spaces that the platform may not keep.
function checkPrompt(findings: Findings, path: ConfigPath, prompt: string): void {
  if (prompt.trim() === '') {
    findings.add('routine.blank', path, 'the prompt is blank', { hint: 'write what the routine should ask, e.g. `List deals that moved stage yesterday.`' });
  } else if (/^[ \t]|[ \t]$/.test(prompt.replace(/\n+$/, ''))) {
    findings.add('routine.padded', path, 'the prompt has spaces before or after it', { hint: 'remove them, or use a YAML block (`prompt: |`) for text over several lines' });
  }
}

function checkDestination(destination: Record<string, unknown>, path: ConfigPath, routineName: string | undefined, findings: Findings): void {
  const routine = routineName === undefined ? 'this routine' : `routine \`${routineName}\``;
  if (destination.type === 'email') {
    const emails = Array.isArray(destination.recipientEmails) ? destination.recipientEmails : [];
    const groups = Array.isArray(destination.userGroupIds) ? destination.userGroupIds : [];
    emails.forEach((email, index) => {
      const emailPath = [...path, 'recipientEmails', index];
      if (typeof email === 'string' && !findings.context.skip(emailPath)) checkEmail(findings, emailPath, email, 'recipient');
    });
    // Routine user groups are uuids (gaps.md); nothing resolves a name to one.
    groups.forEach((group, index) => {
      const groupPath = [...path, 'userGroupIds', index];
      if (typeof group !== 'string' || findings.context.skip(groupPath) || UUID_PATTERN.test(group)) return;
      findings.add('routine.userGroupId', groupPath, `\`userGroupIds\` holds ${JSON.stringify(group)}, which is not a user group id (a uuid)`, {
        hint: 'routine recipients are groups by id, e.g. `3f2c9a1e-8b7d-4c6a-9e5f-1a2b3c4d5e6f`; ids differ per deployment, so use a `${var.NAME}`',
      });
    });
    if (emails.length === 0 && groups.length === 0) {
      findings.add('routine.recipients', path, `${routine} has an e-mail destination without recipients`, {
        hint: 'list addresses in `recipientEmails` or groups in `userGroupIds`',
        target: 'key',
      });
    }
    return;
  }
  if (destination.type !== 'slack') return;
  const recipientId = findings.text(destination, 'recipientId', path);
  const kind = destination.slackRecipientType;
  if (recipientId === undefined || (kind !== 'channel' && kind !== 'users')) return;
  if (SLACK_RECIPIENT_PATTERN[kind].test(recipientId)) return;
  const other = kind === 'channel' ? 'users' : 'channel';
  const what = (of: 'channel' | 'users') => (of === 'channel' ? 'channel' : 'user');
  const upperCased = recipientId.toUpperCase();
  let hint: string;
  if (SLACK_RECIPIENT_PATTERN[other].test(recipientId)) {
    hint = `it looks like a ${what(other)} id: set \`slackRecipientType: ${other}\``;
  } else if (SLACK_RECIPIENT_PATTERN[kind].test(upperCased)) {
    hint = `Slack ids are upper-case: \`${upperCased}\``;
  } else {
    hint = kind === 'channel'
      ? 'copy the channel ID from the channel\'s details in Slack, e.g. `C0123ABCD`'
      : 'copy the member ID from the person\'s Slack profile, e.g. `U0123ABCD`';
  }
  findings.add(
    'routine.slackRecipient',
    [...path, 'recipientId'],
    `\`${recipientId}\` is not a Slack ${what(kind)} id: ${what(kind)} ids are ${SLACK_ID_RULE[kind]}`,
    { hint },
  );
}

/** A name that must match a live object exactly: neither blank nor padded. */
function checkName(findings: Findings, path: ConfigPath, value: string, what: string, code: string): boolean {
  if (value.trim() === '') {
    findings.add(`${code}.blank`, path, `${what} is blank`, { hint: 'write a name, or remove the entry' });
    return false;
  }
  if (value.trim() !== value) {
    findings.add(`${code}.padded`, path, `${what} ${JSON.stringify(value)} has spaces before or after it`, { hint: `write ${JSON.stringify(value.trim())}` });
    return false;
  }
  return true;
}

const SCHEDULE_FORMAT_HINT = 'six fields: minute hour day-of-month month day-of-week year, with `?` in one day field, e.g. `0 9 ? * MON *`';

function scheduleHint(reason: string): string | undefined {
  if (/six fields|must be `\?`/.test(reason)) return SCHEDULE_FORMAT_HINT;
  if (reason.startsWith('never runs again')) return 'the year field names only past years: use `*`, or a range that reaches a coming year';
  if (reason.startsWith('never runs')) return 'no calendar date fits the day, month and year fields together (like 30 February or 31 April)';
  return undefined;
}

/**
 * Names that refer to other things: the model and branch a routine names (`model:` / `modelId:`,
 * `branch:` / `branchId:`, one of each pair), then former names (`renamedFrom:`), which, as for
 * labels, must address one live routine of the same owner unambiguously: not a routine the config
 * declares, not the routine itself, not claimed twice.
 */
export function checkRoutineReferences(config: Record<string, unknown>, findings: Findings): void {
  const section = config.routines;
  if (!Array.isArray(section)) return;
  section.forEach((routine, index) => {
    if (!isRecord(routine)) return;
    const path: ConfigPath = ['routines', index];
    const model = findings.text(routine, 'model', path);
    if (model !== undefined) checkReferenceName(findings, [...path, 'model'], model, 'model name');
    const branch = findings.text(routine, 'branch', path);
    if (branch !== undefined) checkReferenceName(findings, [...path, 'branch'], branch, 'branch name');
    if (routine.branch !== undefined && routine.branchId !== undefined) {
      findings.add('routine.branch', [...path, 'branch'], 'a routine names its branch by one of `branch` (a name) and `branchId`, not both', {
        hint: 'keep `branch:`: names are the same in every deployment',
        target: 'key',
      });
    }
  });
  checkRoutineRenames(section, findings);
}

function checkReferenceName(findings: Findings, path: ConfigPath, value: string, what: string): void {
  if (value.trim() === '') findings.add('routine.blank', path, `${what} is blank`, { hint: 'write the name as the app shows it' });
  else if (value.trim() !== value) findings.add('routine.padded', path, `${what} ${JSON.stringify(value)} has spaces before or after it`, { hint: `write ${JSON.stringify(value.trim())}` });
}

/** Whose routine: an owner's e-mail (compared case-insensitively), or '' for the API key's own user. */
function ownerOf(routine: Record<string, unknown>): string {
  return typeof routine.owner === 'string' ? emailKey(routine.owner) : '';
}

function checkRoutineRenames(section: unknown[], findings: Findings): void {
  const declared = new Map<string, ConfigPath>();
  section.forEach((routine, index) => {
    if (isRecord(routine) && typeof routine.name === 'string') declared.set(`${ownerOf(routine)}\n${routine.name}`, ['routines', index, 'name']);
  });
  const claimed = new Map<string, { newName: string; path: ConfigPath }>();
  section.forEach((routine, index) => {
    if (!isRecord(routine) || typeof routine.name !== 'string' || !Array.isArray(routine.renamedFrom)) return;
    const name = routine.name;
    const owner = ownerOf(routine);
    routine.renamedFrom.forEach((oldName, position) => {
      if (typeof oldName !== 'string') return;
      const path: ConfigPath = ['routines', index, 'renamedFrom', position];
      if (oldName.trim() === '' || oldName.trim() !== oldName) {
        findings.add('routine.renamedFrom', path, `former name ${JSON.stringify(oldName)} is ${oldName.trim() === '' ? 'blank' : 'padded with spaces'}`, { hint: 'write the live routine\'s name exactly' });
        return;
      }
      if (oldName === name) {
        findings.add('routine.renameSelf', path, `routine \`${name}\` lists its own name in \`renamedFrom\``, { hint: 'renamedFrom lists former names only' });
        return;
      }
      const other = declared.get(`${owner}\n${oldName}`);
      if (other !== undefined) {
        findings.add('routine.renameCollision', path, `routine \`${name}\` is renamed from \`${oldName}\`, which is also declared at ${findings.context.describe(other)}`, {
          hint: 'a routine cannot be both renamed and kept: remove one of the two',
        });
        return;
      }
      const key = `${owner}\n${oldName}`;
      const first = claimed.get(key);
      if (first !== undefined) {
        findings.add('routine.renameAmbiguous', path, `\`${oldName}\` is renamed to both \`${first.newName}\` (at ${findings.context.describe(first.path)}) and \`${name}\``, {
          hint: 'a routine can be renamed to one new name only',
        });
        return;
      }
      claimed.set(key, { newName: name, path });
    });
  });
}

/** Routine fields that replace the routine under the documented PUT (`routineUpdate: put`, the default), not under PATCH. */
const REPLACED_BY_PUT = new Set(['timezone', 'destination']);

/**
 * A field a routine may ignore that the environments updating routines by the documented PUT
 * (every one without `routineUpdate: patch`) refuse: changing it there replaces the routine.
 */
export function refusedIgnoreUnderPut(config: Record<string, unknown>, field: string): { reason: string; hint: string } | undefined {
  if (!REPLACED_BY_PUT.has(field)) return undefined;
  const byPut = isRecord(config.environments)
    ? Object.entries(config.environments).flatMap(([name, environment]) => (isRecord(environment) && environment.routineUpdate === 'patch' ? [] : [name]))
    : [];
  if (byPut.length === 0) return undefined;
  return {
    reason: `in ${listNames(byPut)} (routineUpdate: put, the documented update) changing it replaces the routine`,
    hint: 'a server with the PATCH update changes it in place (`routineUpdate: patch` on the environment); otherwise leave it managed',
  };
}
