// Semantic checks of the `environments` section: base URLs, and protect lists that name labels
// which the configuration renames away or which protection cannot affect.
import { labelKey } from '../domain/rules.js';
import { formatPath } from './positions.js';
import { isRecord } from './sources.js';
import { didYouMean } from './suggest.js';
import type { DeclaredLabels, Findings } from './semantic.js';
import type { ConfigPath } from './types.js';

/** Base URL and protect-list findings for every declared environment. */
export function checkEnvironmentSettings(config: Record<string, unknown>, labels: DeclaredLabels, findings: Findings): void {
  if (!isRecord(config.environments)) return;
  const labelsPruned = isRecord(config.prune) && config.prune.labels === true;
  for (const [name, environment] of Object.entries(config.environments)) {
    if (!isRecord(environment)) continue;
    const path: ConfigPath = ['environments', name];
    const baseUrl = findings.text(environment, 'baseUrl', path);
    if (baseUrl !== undefined) {
      const problem = baseUrlProblem(baseUrl);
      if (problem !== undefined) {
        findings.add('environment.baseUrl', [...path, 'baseUrl'], `\`${formatPath([...path, 'baseUrl'])}\` ${problem}`, {
          hint: 'write the instance origin, e.g. `https://acme.example.com`',
        });
      }
    }
    const protectedLabels = isRecord(environment.protect) ? environment.protect.labels : undefined;
    if (!Array.isArray(protectedLabels)) continue;
    protectedLabels.forEach((label, index) => {
      if (typeof label !== 'string') return;
      const itemPath: ConfigPath = [...path, 'protect', 'labels', index];
      const key = labelKey(label);
      if (labels.declared.has(key)) return;
      const renamed = labels.renamed.get(key);
      if (renamed !== undefined) {
        findings.add('protect.renamedLabel', itemPath, `environment \`${name}\` protects label \`${label}\`, which this configuration renames to \`${renamed.newName}\``, {
          severity: 'warning',
          hint: `protect \`${renamed.newName}\` instead`,
        });
        return;
      }
      if (labelsPruned) return; // protecting an undeclared label from pruning is the point
      findings.add('protect.undeclaredLabel', itemPath, `environment \`${name}\` protects label \`${label}\`, which is neither declared nor renamed, and labels are not pruned`, {
        severity: 'warning',
        hint: didYouMean(label, [...labels.declared.values()].map((declared) => declared.name)) ?? 'protection only matters for undeclared labels when `prune.labels` is true',
      });
    });
  }
}

function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `is not a URL: ${JSON.stringify(baseUrl)}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use https (or http), found \`${url.protocol.replace(/:$/, '')}\``;
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.search !== '' || url.hash !== '') return 'must not have a query or fragment';
  if (!/^\/(api\/?)?$/.test(url.pathname)) return `must be the instance origin (optionally ending in /api), found path \`${url.pathname}\``;
  return undefined;
}
