// Checks the JSON Schema cannot express, run on the merged configuration after interpolation, in
// this order: control and invisible characters in any text, then each kind's own checks (declared
// in its folder, kinds/<folder>/configChecks.ts, and handed in from above: config/ imports no
// kind), then environments, `ignore` lists and expiries, each against what the kinds' sections
// declare of them (kindRules.ts). Written defensively: a value of the wrong type was already
// reported by the schema.
import { codePoint, forbiddenCharacterName, holdsNotableCharacter } from './bytes.js';
import { checkExpiry } from './expiry.js';
import { Findings, type SemanticContext } from './findings.js';
import { checkIgnore } from './ignore.js';
import type { KindRules } from './kindRules.js';
import { formatPath } from './positions.js';
import { checkEnvironmentSettings } from './semantic-environments.js';
import { isRecord } from './sources.js';
import type { ConfigPath, Diagnostic } from './types.js';

/**
 * Every semantic finding of a merged, interpolated configuration: its characters first (a value
 * they report is not reported again), then the kinds' checks, given in order, then the rest.
 */
export function checkSemantics(config: Record<string, unknown>, rules: KindRules, context: SemanticContext): Diagnostic[] {
  const findings = new Findings(context);
  if (context.verbatimText !== true) checkCharacters(config, [], findings, multilineText(rules.multiline));
  for (const check of rules.checks) check(config, findings);
  checkEnvironmentSettings(config, findings, rules.protectsByEmail);
  checkIgnore(config, findings, rules.ignore);
  checkExpiry(config, findings, context.now ?? new Date(), rules.expiry);
  return findings.diagnostics;
}

/** The fields whose text may span lines or be indented (everything else is one line), and how a hint names them. */
interface MultilineText {
  fields: ReadonlySet<string>;
  /** `prompts and descriptions`. */
  words: string;
}

function multilineText(fields: readonly string[]): MultilineText {
  const words = fields.map((field) => `${field}s`);
  return { fields: new Set(fields), words: words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` };
}

/**
 * Control and invisible characters in any text value, after interpolation: YAML escapes (`"\e"`)
 * and environment variables can bring what the file's bytes did not. Tabs and line breaks are
 * allowed only in the fields the kinds declare multiline (a routine's prompt).
 */
function checkCharacters(value: unknown, path: ConfigPath, findings: Findings, text: MultilineText): void {
  if (typeof value === 'string') {
    if (!holdsNotableCharacter(value) || findings.context.skip(path)) return;
    const multiline = text.fields.has(String(path.at(-1)));
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      const allowed = multiline ? code === 0x09 || code === 0x0a : false;
      if (allowed) continue;
      const name = code === 0x09 ? `tab (${codePoint(code)})` : code === 0x0a ? `line break (${codePoint(code)})` : code === 0x0d ? `carriage return (${codePoint(code)})` : forbiddenCharacterName(code);
      if (name === undefined) continue;
      findings.add('text.controlCharacter', path, `\`${formatPath(path)}\` holds ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`, {
        hint: multiline ? `${text.words} may hold tabs and line breaks, nothing else invisible` : 'write it on one line, with printable characters only',
      });
      findings.taint(path);
      return;
    }
    return;
  }
  // A child's path is built only for what may hold a finding: most values are plain text or numbers.
  const visit = (child: unknown, step: string | number) => {
    if (typeof child === 'string' ? holdsNotableCharacter(child) : typeof child === 'object' && child !== null) checkCharacters(child, [...path, step], findings, text);
  };
  if (Array.isArray(value)) value.forEach((item, index) => visit(item, index));
  else if (isRecord(value)) for (const [key, child] of Object.entries(value)) visit(child, key);
}
