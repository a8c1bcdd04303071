// Checks the JSON Schema cannot express, run on the merged configuration after interpolation, in
// this order: control and invisible characters in any text, then each kind's own checks (declared
// in its folder, kinds/<folder>/configChecks.ts, and handed in from above: config/ imports no
// kind), then what belongs to no kind: environments, `ignore` lists and expiries. Written
// defensively: a value of the wrong type was already reported by the schema.
import { codePoint, forbiddenCharacterName, holdsNotableCharacter } from './bytes.js';
import { checkExpiry } from './expiry.js';
import { Findings, type KindConfigCheck, type SemanticContext } from './findings.js';
import { checkIgnore } from './ignore.js';
import { formatPath } from './positions.js';
import { checkEnvironmentSettings } from './semantic-environments.js';
import { isRecord } from './sources.js';
import type { ConfigPath, Diagnostic } from './types.js';

/**
 * Every semantic finding of a merged, interpolated configuration: its characters first (a value
 * they report is not reported again), then the kinds' checks, given in order, then the rest.
 */
export function checkSemantics(config: Record<string, unknown>, kindChecks: readonly KindConfigCheck[], context: SemanticContext): Diagnostic[] {
  const findings = new Findings(context);
  if (context.verbatimText !== true) checkCharacters(config, [], findings);
  for (const check of kindChecks) check(config, findings);
  checkEnvironmentSettings(config, findings);
  checkIgnore(config, findings);
  checkExpiry(config, findings, context.now ?? new Date());
  return findings.diagnostics;
}

// Fields whose text may span lines or be indented: everything else is one line.
const MULTILINE_FIELDS = new Set(['prompt', 'description']);

/**
 * Control and invisible characters in any text value, after interpolation: YAML escapes (`"\e"`)
 * and environment variables can bring what the file's bytes did not. Tabs and line breaks are
 * allowed in prompts and descriptions only.
 */
function checkCharacters(value: unknown, path: ConfigPath, findings: Findings): void {
  if (typeof value === 'string') {
    if (!holdsNotableCharacter(value) || findings.context.skip(path)) return;
    const multiline = MULTILINE_FIELDS.has(String(path.at(-1)));
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      const allowed = multiline ? code === 0x09 || code === 0x0a : false;
      if (allowed) continue;
      const name = code === 0x09 ? `tab (${codePoint(code)})` : code === 0x0a ? `line break (${codePoint(code)})` : code === 0x0d ? `carriage return (${codePoint(code)})` : forbiddenCharacterName(code);
      if (name === undefined) continue;
      findings.add('text.controlCharacter', path, `\`${formatPath(path)}\` holds ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`, {
        hint: multiline ? 'prompts and descriptions may hold tabs and line breaks, nothing else invisible' : 'write it on one line, with printable characters only',
      });
      findings.taint(path);
      return;
    }
    return;
  }
  // A child's path is built only for what may hold a finding: most values are plain text or numbers.
  const visit = (child: unknown, step: string | number) => {
    if (typeof child === 'string' ? holdsNotableCharacter(child) : typeof child === 'object' && child !== null) checkCharacters(child, [...path, step], findings);
  };
  if (Array.isArray(value)) value.forEach((item, index) => visit(item, index));
  else if (isRecord(value)) for (const [key, child] of Object.entries(value)) visit(child, key);
}
