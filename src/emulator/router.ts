// Matches a method and path against the route table: a route with its decoded parameters, a
// known path with the wrong method (405 with the allowed ones), or nothing (404).
import type { Route } from './context.js';

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; template: string; allowed: string[]; errorStyle: Route['errorStyle'] }
  | { kind: 'not-found' };

interface CompiledRoute {
  route: Route;
  segments: ({ literal: string } | { param: string })[];
}

function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

/** The route table, compiled once; matching never throws. */
export class Router {
  private readonly compiled: CompiledRoute[];

  /** Compiles the table; refuses two routes with the same method and template. */
  constructor(routes: readonly Route[]) {
    const seen = new Set<string>();
    this.compiled = routes.map((route) => {
      const key = `${route.method} ${route.template}`;
      if (seen.has(key)) throw new Error(`duplicate emulator route ${key}`);
      seen.add(key);
      const segments = splitPath(route.template).map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment);
        return param ? { param: param[1]! } : { literal: segment };
      });
      return { route, segments };
    });
  }

  /** Every route, for listings. */
  routes(): Route[] {
    return this.compiled.map((entry) => entry.route);
  }

  /** Finds the route for a request; path parameters come back URL-decoded. */
  match(method: string, path: string): RouteMatch {
    const parts = splitPath(path);
    const candidates: { compiled: CompiledRoute; params: Record<string, string> }[] = [];
    for (const compiled of this.compiled) {
      const params = matchSegments(compiled, parts);
      if (params !== undefined) candidates.push({ compiled, params });
    }
    if (candidates.length === 0) return { kind: 'not-found' };
    // Prefer the template with more literal segments (`/labels/x` over `/labels/{name}`).
    const literalCount = (c: CompiledRoute) => c.segments.filter((s) => 'literal' in s).length;
    const best = Math.max(...candidates.map((c) => literalCount(c.compiled)));
    const sameShape = candidates.filter((c) => literalCount(c.compiled) === best);
    const exact = sameShape.find((c) => c.compiled.route.method === method);
    if (exact) return { kind: 'route', route: exact.compiled.route, params: exact.params };
    const first = sameShape[0]!.compiled.route;
    return {
      kind: 'method-not-allowed',
      template: first.template,
      allowed: sameShape.map((c) => c.compiled.route.method),
      errorStyle: first.errorStyle,
    };
  }
}

function matchSegments(compiled: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (compiled.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of compiled.segments.entries()) {
    const part = parts[index]!;
    if ('literal' in segment) {
      const equal = compiled.route.caseInsensitive
        ? segment.literal.toLowerCase() === part.toLowerCase()
        : segment.literal === part;
      if (!equal) return undefined;
    } else {
      if (part === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[segment.param] = decoded;
    }
  }
  return params;
}
