// Semantic checks of the `environments` section: base URLs, and protect lists that name labels
// which the configuration renames away or which protection cannot affect.
import { resolveInstanceOrigin } from '../api/url.js';
import { labelKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
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
        findings.add('environment.baseUrl', [...path, 'baseUrl'], `\`${formatPath([...path, 'baseUrl'])}\` ${problem.summary}`, {
          hint: problem.hint ?? 'write the instance origin, e.g. `https://acme.example.com`',
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

function baseUrlProblem(baseUrl: string): { summary: string; hint?: string } | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { summary: `is not a URL: ${JSON.stringify(baseUrl)}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { summary: `must use https (or http), found \`${url.protocol.replace(/:$/, '')}\`` };
  if (url.username !== '' || url.password !== '') return { summary: 'must not contain credentials' };
  if (url.search !== '' || url.hash !== '') return { summary: 'must not have a query or fragment' };
  if (!/^\/(api\/?)?$/.test(url.pathname)) return { summary: `must be the instance origin (optionally ending in /api), found path \`${url.pathname}\`` };
  return clientRefusal(baseUrl, url);
}

/**
 * What the HTTP client would refuse when a command connects: asked of the client itself, so
 * validation and plan agree on which addresses may carry the token over plain http.
 */
function clientRefusal(baseUrl: string, url: URL): { summary: string; hint?: string } | undefined {
  try {
    resolveInstanceOrigin(baseUrl);
    return undefined;
  } catch (error) {
    if (!(error instanceof StewardError)) throw error;
    if (error.code === 'config.insecure-url') {
      return {
        summary: `uses plain http:// for \`${url.host}\`, which is not a loopback address: the API token would cross the network unencrypted`,
        hint: `use \`https://${url.host}\`; http:// is only for an emulator on localhost or 127.0.0.1`,
      };
    }
    return { summary: `is refused: ${error.message}`, ...(error.hint === undefined ? {} : { hint: error.hint }) };
  }
}
