// The TypeScript types of a configuration, printed from its assembled schema: what steward holds
// once a configuration is loaded, merged and its `${…}` references interpolated. So the printer
// reads the schema as validation after interpolation does (config/schema.ts `resolved`): a value
// that may be a reference in a file is only ever its own type in the types.
//
// Why a printer of our own rather than json-schema-to-typescript: the schema uses a small part of
// JSON Schema, and the types must keep the names the code imports (RoutineConfig, …). That library
// names types after definitions and numbers repeats (IgnoreList1, IgnoreList2), reads a `oneOf`
// of `required` lists as an open intersection (`& { [k: string]: unknown }`), and is steered with
// keywords (`tsType`) that would then ship in the schema; it also brings prettier and lodash.
// This printer knows the keywords the schema uses and throws on any other, so a new one is a
// decision, never a silently wrong type.
import { MERGED_REQUIRED, type SchemaNode } from '../src/config/schemaParts.js';

const REFERENCE = '#/$defs/reference';
/** Keywords that constrain values without changing their TypeScript type, or only speak to people and editors. */
const NO_TYPE = new Set([
  'description', 'errorMessage', 'minimum', 'minLength', 'pattern', 'propertyNames', 'uniqueItems', 'discriminator',
  'additionalProperties', 'required', 'properties', 'items', 'type', 'const', 'enum', 'anyOf', 'oneOf', '$ref',
  '$schema', '$id', 'title', '$defs',
]);
const WIDTH = 100;
/** The root's own words describe one file; StewardConfig is the whole configuration. */
const ROOT =
  'A whole configuration: its files merged (maps key by key, lists concatenated), its `${…}` references interpolated for one environment, and at least one environment declared.';

/** The kinds, in order, as the module exports them (KINDS, PRUNABLE_KINDS). */
export interface PrintedKinds {
  kinds: readonly string[];
  prunable: readonly string[];
}

/**
 * The module's text: KINDS and PRUNABLE_KINDS with their types, StewardConfig (the root), and one
 * named type (`…Config`) per top-level section and per definition that is an object with
 * properties; every other shape is written where it is used. Named types are type aliases, not
 * interfaces: they are plain data, which code may read as records (`Record<string, unknown>`).
 */
export function printConfigTypes(schema: SchemaNode, kinds: PrintedKinds, header: string): string {
  const definitions = schema.$defs as Record<string, SchemaNode>;
  const sections = schema.properties as Record<string, SchemaNode>;
  const names = new Map<SchemaNode, string>();
  for (const [key, section] of Object.entries(sections)) if (isRecordType(section)) names.set(section, `${capitalized(key)}Config`);
  for (const [name, definition] of Object.entries(definitions)) if (isRecordType(definition)) names.set(definition, `${capitalized(name)}Config`);

  const typeOf = (node: SchemaNode, indent: string, at: string): string => {
    const unknown = Object.keys(node).filter((keyword) => !NO_TYPE.has(keyword));
    if (unknown.length > 0) throw new Error(`${at}: the type printer knows no ${unknown.join(', ')}`);
    const named = names.get(node);
    if (named !== undefined) return named;
    if (typeof node.$ref === 'string') {
      const target = definitions[node.$ref.replace('#/$defs/', '')];
      if (target === undefined || node.$ref === REFERENCE) throw new Error(`${at}: no type for ${node.$ref}`);
      return typeOf(target, indent, node.$ref);
    }
    if ('const' in node) return literal(node.const);
    if (Array.isArray(node.enum)) return union(node.enum.map(literal));
    const branches = (node.anyOf ?? node.oneOf) as SchemaNode[] | undefined;
    // A `oneOf` of `required` lists (exactly one of `email` and `userId`) only says which
    // optional properties are present: the type is the object's.
    if (branches !== undefined && !branches.every(isRequirement)) {
      return union(branches.filter((branch) => branch.$ref !== REFERENCE).map((branch, index) => typeOf(branch, indent, `${at}/${index}`)));
    }
    if (node.type === undefined) throw new Error(`${at}: no type`);
    return union(([] as string[]).concat(node.type as string | string[]).map((type) => primitive(type, node, indent, at)));
  };

  const primitive = (type: string, node: SchemaNode, indent: string, at: string): string => {
    switch (type) {
      case 'string':
      case 'boolean':
      case 'null':
      case 'number':
        return type;
      case 'integer':
        return 'number';
      case 'array': {
        const item = typeOf(node.items as SchemaNode, indent, `${at}/items`);
        return /[|&]/.test(item) ? `(${item})[]` : `${item}[]`;
      }
      case 'object':
        if (node.properties !== undefined) return `{\n${members(node, `${indent}  `, at, [])}${indent}}`;
        if (typeof node.additionalProperties === 'object') return `Record<string, ${typeOf(node.additionalProperties as SchemaNode, indent, `${at}/additionalProperties`)}>`;
        throw new Error(`${at}: an object with neither properties nor a schema of its values`);
      default:
        throw new Error(`${at}: the type printer knows no type ${type}`);
    }
  };

  const members = (node: SchemaNode, indent: string, at: string, alsoRequired: readonly string[]): string => {
    const required = new Set([...((node.required as string[] | undefined) ?? []), ...alsoRequired]);
    return Object.entries(node.properties as Record<string, SchemaNode>)
      .map(([key, property]) => {
        const type = typeOf(property, indent, `${at}/properties/${key}`);
        return `${docComment(property.description, indent)}${indent}${key}${required.has(key) ? '' : '?'}: ${type};\n`;
      })
      .join('');
  };

  const declaration = (name: string, node: SchemaNode, at: string, alsoRequired: readonly string[] = []) =>
    `${docComment(node.description, '')}export type ${name} = {\n${members(node, '  ', at, alsoRequired)}};\n`;

  return [
    header,
    `/** The resource kinds steward manages, in the order a user reads about them. */\nexport const KINDS = ${constList(kinds.kinds)};\nexport type Kind = (typeof KINDS)[number];\n`,
    `/** Kinds whose undeclared live objects may be pruned (deleted or reset). */\nexport const PRUNABLE_KINDS = ${constList(kinds.prunable)};\nexport type PrunableKind = (typeof PRUNABLE_KINDS)[number];\n`,
    declaration('StewardConfig', { ...schema, description: ROOT }, '#', MERGED_REQUIRED),
    ...Object.entries(sections).flatMap(([key, section]) => (names.has(section) ? [declaration(names.get(section)!, section, `#/properties/${key}`)] : [])),
    ...Object.entries(definitions).flatMap(([name, definition]) => (names.has(definition) ? [declaration(names.get(definition)!, definition, `#/$defs/${name}`)] : [])),
  ].join('\n');
}

function isRecordType(node: SchemaNode): boolean {
  return node.type === 'object' && node.properties !== undefined;
}

function isRequirement(branch: SchemaNode): boolean {
  return Object.keys(branch).every((keyword) => keyword === 'required');
}

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : JSON.stringify(value);
}

function union(types: string[]): string {
  return [...new Set(types)].join(' | ');
}

function constList(values: readonly string[]): string {
  const inline = `[${values.map(literal).join(', ')}] as const`;
  return inline.length + 22 <= WIDTH ? inline : `[\n${values.map((value) => `  ${literal(value)},\n`).join('')}] as const`;
}

/** A description as a doc comment, wrapped to the page's width. */
function docComment(description: unknown, indent: string): string {
  if (typeof description !== 'string') return '';
  const text = description.replaceAll('*/', '*\\/');
  if (indent.length + text.length + 7 <= WIDTH) return `${indent}/** ${text} */\n`;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + 3 + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return `${indent}/**\n${lines.map((each) => `${indent} * ${each}\n`).join('')}${indent} */\n`;
}
