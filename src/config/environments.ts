// Choosing the environment a command works on: the one named by --env, or the only one declared.
import { didYouMean, listNames } from './suggest.js';
import type { Diagnostic } from './types.js';

export interface EnvironmentSelection {
  /** The environment the command works on, when one is chosen. */
  selected?: string;
  /** Environments whose variables the configuration is checked against. */
  checked: string[];
  diagnostics: Diagnostic[];
}

/**
 * Selects `requested` among `declared`. Without a request, a single declared environment is
 * selected; with several, `selectionRequired` makes that an error (commands that talk to one
 * deployment), otherwise every environment is checked (validation).
 */
export function selectEnvironment(declared: readonly string[], requested: string | undefined, selectionRequired: boolean): EnvironmentSelection {
  const all = [...declared];
  if (declared.length === 0) return { checked: [], diagnostics: [] };
  if (requested !== undefined) {
    if (declared.includes(requested)) return { selected: requested, checked: [requested], diagnostics: [] };
    return {
      checked: all,
      diagnostics: [
        {
          severity: 'error',
          code: 'environment.unknown',
          summary: `unknown environment \`${requested}\`; this configuration declares ${listNames(all)}`,
          hint: didYouMean(requested, declared) ?? `pass ${declared.map((name) => `--env ${name}`).join(' or ')}`,
        },
      ],
    };
  }
  if (declared.length === 1) return { selected: declared[0]!, checked: all, diagnostics: [] };
  if (!selectionRequired) return { checked: all, diagnostics: [] };
  return {
    checked: all,
    diagnostics: [
      {
        severity: 'error',
        code: 'environment.required',
        summary: `choose an environment: this configuration declares ${listNames(all)}`,
        hint: `pass ${declared.map((name) => `--env ${name}`).join(' or ')}`,
      },
    ],
  };
}
