// The `labels:` section of a configuration file: the part of the config schema of labels and of
// the kinds declared with them, their document and folder links (`documents:`, `folders:`), what a
// label's `ignore` may name and which of its text may span lines, and their checks of what the
// schema cannot say (configChecks.ts). config/assembleSchema.ts puts it
// together with the other kinds' (kinds/configRegistry.ts lists them); `npm run generate` writes
// schemas/steward.schema.json and the config's types from it.
import type { KindConfigSchema } from '../../config/assembleSchema.js';
import { STEWARD_SETTING } from '../../config/ignore.js';
import { checkLabels } from './configChecks.js';

export const labelsConfigSchema: KindConfigSchema = {
  kinds: ['labels', 'documentLabels', 'folderLabels'],
  sections: {
    labels: {
      schema: {
        description: 'Labels, and (optionally) the documents that carry each of them. A label is identified by its name, case-insensitively.',
        type: 'array',
        items: { $ref: '#/$defs/label' },
      },
      prunable: {
        prune: 'Delete labels that are neither declared nor renamed (taking them off their documents first).',
        ignore: 'Ignored fields of every label: `color`, `description`, `verified`, `homepage`.',
        protect: 'true, or the names of labels that are never deleted.',
        ignoreRules: {
          noun: 'label',
          fields: ['color', 'description', 'verified', 'homepage'],
          refused: {
            name: 'it identifies the label',
            renamedFrom: STEWARD_SETTING,
            documents: "it is not a field of the label: leave `documents` out and steward leaves the label's documents alone",
            folders: "it is not a field of the label: leave `folders` out and steward leaves the label's folders alone",
            pruneDocuments: STEWARD_SETTING,
            pruneFolders: STEWARD_SETTING,
            protect: STEWARD_SETTING,
            ignore: STEWARD_SETTING,
          },
        },
      },
      multiline: ['description'],
    },
  },
  definitions: {
    label: {
      description: 'A label, optionally with the documents that carry it.',
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: {
          description: 'Label name, 2 to 25 characters; identifies the label case-insensitively.',
          type: 'string',
        },
        renamedFrom: {
          description: 'Former names: a live label under one of them is renamed to `name`, so documents keep it.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
        color: {
          description: 'Hex colour (#rgb, #rrggbb or #rrggbbaa), or null for none.',
          type: ['string', 'null'],
        },
        description: {
          description: 'Up to 500 characters, or null.',
          type: ['string', 'null'],
        },
        verified: {
          description: 'Marks the label as verified (organization admins only).',
          $ref: '#/$defs/boolean',
        },
        homepage: {
          description: 'Shows the label on the homepage (organization admins only).',
          $ref: '#/$defs/boolean',
        },
        documents: {
          description: 'Identifiers of documents that carry this label. Absent = document links are not managed.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
        pruneDocuments: {
          description: 'true takes the label off documents not listed in `documents`; default false (documents are only added).',
          $ref: '#/$defs/boolean',
        },
        folders: {
          description:
            'Folders that carry this label, by path (e.g. finance/board-packs, the same in every deployment) or id. Absent = folder labels are not managed.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
        pruneFolders: {
          description: 'true takes the label off folders not listed in `folders`; default false (folders are only added).',
          $ref: '#/$defs/boolean',
        },
        ignore: {
          description:
            'Fields of this label steward sets when it creates it and never changes afterwards (live changes made in the app stay): `color`, `description`, `verified`, `homepage`. Identity fields and fields whose change replaces the object cannot be ignored.',
          $ref: '#/$defs/ignoreList',
        },
        protect: {
          description: 'Never delete this label, even when it is no longer declared.',
          $ref: '#/$defs/boolean',
        },
      },
    },
  },
  checks: [checkLabels],
};
