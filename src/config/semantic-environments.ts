// Semantic checks of the `environments` section: base URLs, and names in protect lists that can
// match a live object. (Whether a protected label is declared or renamed is the labels' check.)
import { resolveInstanceOrigin } from '../api/url.js';
import { emailProblem } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { formatPath } from './positions.js';
import { isRecord } from './sources.js';
import type { Findings } from './findings.js';
import type { ConfigPath } from './types.js';

/**
 * Base URL and protect-list findings for every declared environment; `protectsByEmail` holds the
 * kinds whose protect lists may name an e-mail, with what they name (`user`).
 */
export function checkEnvironmentSettings(config: Record<string, unknown>, findings: Findings, protectsByEmail: ReadonlyMap<string, string>): void {
  if (!isRecord(config.environments)) return;
  for (const [name, environment] of Object.entries(config.environments)) {
    if (!isRecord(environment)) continue;
    const path: ConfigPath = ['environments', name];
    const baseUrl = findings.text(environment, 'baseUrl', path);
    if (baseUrl !== undefined) {
      const problem = baseUrlProblem(baseUrl);
      if (problem !== undefined) {
        findings.add(problem.code ?? 'environment.baseUrl', [...path, 'baseUrl'], `\`${formatPath([...path, 'baseUrl'])}\` ${problem.summary}`, {
          hint: problem.hint ?? 'write the instance origin, e.g. `https://acme.example.com`',
        });
      }
    }
    if (isRecord(environment.protect)) checkProtectedNames(environment.protect, [...path, 'protect'], findings, protectsByEmail);
  }
}

/** A protected name matches a live object only when written exactly: no blank or padded names. */
function checkProtectedNames(protect: Record<string, unknown>, path: ConfigPath, findings: Findings, protectsByEmail: ReadonlyMap<string, string>): void {
  for (const [kind, names] of Object.entries(protect)) {
    if (!Array.isArray(names)) continue;
    const byEmail = protectsByEmail.get(kind);
    names.forEach((name, index) => {
      if (typeof name !== 'string') return;
      // Users are protected by e-mail or id, written as in their entries.
      if (byEmail !== undefined && name.trim() === name && name.includes('@')) {
        const problem = emailProblem(name);
        if (problem !== undefined) findings.add('email.format', [...path, kind, index], `protected ${byEmail} \`${name}\` is not a valid e-mail address`, { hint: problem });
        return;
      }
      if (name.trim() === name) return;
      findings.add('protect.name', [...path, kind, index], name.trim() === '' ? 'a protected name is blank' : `protected name ${JSON.stringify(name)} has spaces before or after it`, {
        hint: 'write the name exactly as it is declared',
      });
    });
  }
}

function baseUrlProblem(baseUrl: string): { summary: string; hint?: string; code?: string } | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Echoed only when it cannot hold credentials (no `@`): a malformed URL may still carry them.
    if (!baseUrl.includes('://') && !baseUrl.includes('@')) {
      return { summary: 'is not a URL: it does not start with `https://`', hint: `write \`https://${baseUrl.trim()}\`` };
    }
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*@/.test(baseUrl.trim())) {
      return {
        code: 'secret.baseUrl',
        summary: 'is not a URL, and holds what looks like a user name or password (`user:password@`)',
        hint: 'write the instance origin alone; the token comes from the variable named by `tokenEnv`; if it was a real token, revoke it',
      };
    }
    return { summary: 'is not a URL', hint: 'write the instance origin, e.g. `https://acme.example.com`' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { summary: `must use https (or http), found \`${url.protocol.replace(/:$/, '')}\`` };
  if (url.username !== '' || url.password !== '') {
    // A `secret.` code: the source line is shown with the value masked.
    return { code: 'secret.baseUrl', summary: 'must not contain a user name or password (`user:password@`)', hint: 'remove them: the token comes from the variable named by `tokenEnv`; if it was a real token, revoke it' };
  }
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
