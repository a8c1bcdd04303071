// The yaml library, loaded when a file first needs it. Most files hold nothing a check of the
// YAML reports, which fastYaml.ts reads without it, and such a file never needs its Document, so
// a plan of a large configuration no longer pays for loading the library at start-up. Loaded
// through `require`: the Document is built on demand by synchronous code (a finding's position).
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let library: typeof Yaml | undefined;

/** The yaml library's module (the same instance `import 'yaml'` gives: the package has one build for Node). */
export function yaml(): typeof Yaml {
  library ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return library;
}
