// The parts of the config schema that belong to no kind: the file's header, `version`,
// `environments` (each deployment's settings), `prune`, `ignore` and `policies`, and the
// definitions the kinds share (`${…}` references, booleans, `until`, field and name lists).
// config/assembleSchema.ts fills in what each kind folder declares (kinds/<folder>/configSchema.ts);
// `npm run generate` writes the result to schemas/steward.schema.json, the file editors,
// `steward schema` and the validator use, and its types to configTypes.generated.ts.

/** A JSON Schema node, as the schema file holds it. */
export type SchemaNode = { readonly [keyword: string]: unknown };

/** What the kinds contribute to the top level, each in the order a user reads about the kinds. */
export interface KindParts {
  /** Their top-level sections of a file (`routines:`), by key. */
  sections: Record<string, SchemaNode>;
  /** Per prunable kind: its entry in `prune`, `ignore` and an environment's `protect`. */
  prune: Record<string, SchemaNode>;
  ignore: Record<string, SchemaNode>;
  protect: Record<string, SchemaNode>;
  /** The definitions their sections refer to (`#/$defs/routine`). */
  definitions: Record<string, SchemaNode>;
}

/**
 * Keys the merged configuration always has, though no single file must: every file may hold one
 * kind, and the semantic checks require some file to declare an environment.
 */
export const MERGED_REQUIRED = ['environments'] as const;

/** The whole schema of one configuration file, with the kinds' parts in their places. */
export function topLevelSchema(kinds: KindParts): SchemaNode {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:steward:schema:config:1',
    title: 'steward configuration',
    description:
      'One file of a steward configuration. A configuration is one file or a directory whose *.yaml files are merged: maps key by key, lists concatenated.',
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: {
        description: 'Format version of this file. Every file of a configuration declares `version: 1`.',
        const: 1,
      },
      environments: {
        description:
          'Named deployments (e.g. production, playground). At least one environment must be declared in some file of the configuration; choose one with `--env`.',
        type: 'object',
        propertyNames: {
          pattern: '^[A-Za-z][A-Za-z0-9_-]*$',
          errorMessage: 'must start with a letter and contain only letters, digits, `_` and `-`',
        },
        additionalProperties: { $ref: '#/$defs/environment' },
      },
      ...kinds.sections,
      prune: {
        description: 'Per kind: delete (or reset to the default) live objects this configuration does not declare. Default: never.',
        type: 'object',
        additionalProperties: false,
        properties: kinds.prune,
      },
      ignore: {
        description:
          "Per kind: fields steward sets when it creates an object and never changes afterwards, for every object of the kind (added to each object's own `ignore`).",
        type: 'object',
        additionalProperties: false,
        properties: kinds.ignore,
      },
      policies: {
        description:
          'Rules every plan must pass before anything is written (each environment may override them under environments.NAME.policies). A plan that breaks one is refused by apply unless the rule is named with --override-policy.',
        $ref: '#/$defs/policies',
      },
    },
    $defs: {
      reference: {
        description: 'A reference to a variable of the selected environment (`${var.NAME}`) or to a process environment variable (`${env.NAME}`).',
        type: 'string',
        pattern: '^\\$\\{(var|env)\\.[A-Za-z_][A-Za-z0-9_]*\\}$',
      },
      boolean: { anyOf: [{ type: 'boolean' }, { $ref: '#/$defs/reference' }], errorMessage: 'must be true or false' },
      until: {
        description:
          'When this entry stops being in force, written as text: a date (2026-12-31: the end of that day in UTC), a date and an IANA zone (2026-12-31 Europe/Berlin) or a date-time with its offset (2026-12-31T18:00:00+01:00). From then on it is undone, even where prune is off.',
        type: 'string',
      },
      ignoreList: {
        description: 'Field names, each once.',
        type: 'array',
        uniqueItems: true,
        items: { type: 'string', minLength: 1 },
      },
      protectList: {
        anyOf: [{ const: true }, { type: 'array', items: { type: 'string', minLength: 1 } }],
        errorMessage: 'must be true (the whole kind) or a list of names',
      },
      environment: environment(kinds.protect),
      policies: POLICIES,
      ...kinds.definitions,
    },
  };
}

function environment(protect: Record<string, SchemaNode>): SchemaNode {
  return {
    description: 'One deployment of the platform.',
    type: 'object',
    additionalProperties: false,
    required: ['baseUrl', 'tokenEnv'],
    properties: {
      baseUrl: {
        description: 'Instance origin, e.g. https://acme.example.com (a trailing /api is accepted). May be an `${env.NAME}` reference.',
        type: 'string',
      },
      tokenEnv: {
        description:
          "NAME of the process environment variable that holds this deployment's API token, e.g. STEWARD_PRODUCTION_TOKEN. Never the token itself.",
        type: 'string',
        pattern: '^[A-Z_][A-Z0-9_]*$',
      },
      requestsPerMinute: {
        description: "Request budget of this deployment's API key; default 60.",
        anyOf: [{ type: 'integer', minimum: 1 }, { $ref: '#/$defs/reference' }],
        errorMessage: 'must be a whole number ≥ 1',
      },
      account: {
        description:
          "The account (organization) this deployment belongs to. The vendor's AI credit controls apply to every instance of an organization: deployments that name the same account share one set, so they must declare the same creditControls, and a promotion between them leaves credit controls alone.",
        type: 'string',
        minLength: 1,
      },
      routineUpdate: {
        description:
          "How this deployment updates routines. put (default): the documented PUT, which changes name, prompt, schedule, description, model and pause in place; a change of timezone, destination, branch or topic replaces the routine (create, then delete). patch: the server also has the generated client's PATCH, which changes timezone and destination in place too.",
        enum: ['put', 'patch'],
      },
      variables: {
        description:
          'Values for `${var.NAME}` references elsewhere in the configuration, e.g. model ids that differ per deployment. Values may use `${env.NAME}`.',
        type: 'object',
        propertyNames: {
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
          errorMessage: 'must start with a letter or `_` and contain only letters, digits and `_`',
        },
        additionalProperties: {
          type: ['string', 'number', 'boolean', 'null'],
          errorMessage: 'must be a string, a number, true/false or null',
        },
      },
      protect: {
        description:
          'Objects this environment never deletes or resets, per kind: true protects the whole kind, a list protects the named objects.',
        type: 'object',
        additionalProperties: false,
        properties: protect,
      },
      policies: {
        description:
          "This environment's rules: each one set here replaces the top-level one of the same name (within creditLimits and routines, setting by setting); null switches a rule off here.",
        $ref: '#/$defs/policies',
      },
    },
  };
}

/** Rules every plan must pass (src/policy/): the top level's, and each environment's over them. */
const POLICIES: SchemaNode = {
  description: 'Rules every plan must pass before anything is written. null switches a rule off.',
  type: 'object',
  additionalProperties: false,
  properties: {
    maxDestroy: {
      description:
        'At most this many deletions plus replacements in one plan (0 = none at all). Resetting a credit limit to the default counts as a deletion.',
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }],
      errorMessage: 'must be a whole number ≥ 0, or null to switch the rule off',
    },
    maxChanges: {
      description: 'At most this many steps (creates, updates, replacements and deletions) in one plan.',
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }],
      errorMessage: 'must be a whole number ≥ 0, or null to switch the rule off',
    },
    creditLimits: {
      description:
        'No credit value a plan writes (organization thresholds and defaults, user, user-group and entity-group limits) above max, nor unlimited (null) unless allowUnlimited.',
      type: ['object', 'null'],
      errorMessage: 'must be a map with max, allowUnlimited, belowUsage and maxExposure, or null to switch the rule off',
      additionalProperties: false,
      properties: {
        max: {
          description: 'The highest credit value a plan may write.',
          anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }],
          errorMessage: 'must be a number ≥ 0, or null for no maximum',
        },
        allowUnlimited: {
          description: 'Whether a plan may make a limit unlimited or switch a threshold off (null); default false.',
          type: 'boolean',
          errorMessage: 'must be true or false',
        },
        belowUsage: {
          description:
            "What a plan that lowers an organization threshold or a user's limit to or below this period's usage gets: deny (a violation) or warn (the impact shown; the default).",
          enum: ['deny', 'warn'],
          errorMessage: 'must be deny or warn',
        },
        maxExposure: {
          description:
            "The most credits per period the configuration may allow once a plan that changes credit values is applied (the plan's exposure, an estimate); unlimited is above it.",
          anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }],
          errorMessage: 'must be a number ≥ 0, or null for no maximum',
        },
      },
    },
    routines: {
      description: 'Where routines a plan creates or changes may send their results, and whether they must be paused.',
      type: ['object', 'null'],
      errorMessage:
        'must be a map with recipientDomains, slackRecipientTypes, recipientsMustBeUsers, requirePaused and maxRunsPerHour, or null to switch the rules off',
      additionalProperties: false,
      properties: {
        recipientDomains: {
          description: 'Every e-mail recipient must be at one of these domains (`acme.example`; `*.acme.example` also admits its subdomains).',
          type: ['array', 'null'],
          errorMessage: 'must be a list of domains such as acme.example or *.acme.example, or null',
          items: {
            type: 'string',
            pattern: '^(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$',
            errorMessage: 'must be a domain such as acme.example or *.acme.example',
          },
        },
        slackRecipientTypes: {
          description: 'The Slack recipient types allowed (`channel`, `users`).',
          type: ['array', 'null'],
          errorMessage: 'must be a list of channel and users, or null',
          items: { enum: ['channel', 'users'] },
        },
        recipientsMustBeUsers: {
          description:
            "Every e-mail recipient a plan adds to a routine must be an active user of the instance: an address that is no user, or a deactivated user's, is a violation (and so is one a personal token could not check).",
          anyOf: [{ type: 'boolean' }, { type: 'null' }],
          errorMessage: 'must be true, false or null',
        },
        requirePaused: {
          description: 'Every routine a plan creates or changes must be paused (e.g. in a playground).',
          anyOf: [{ type: 'boolean' }, { type: 'null' }],
          errorMessage: 'must be true, false or null',
        },
        maxRunsPerHour: {
          description:
            'At most this many of the configured routines may start in one hour (UTC) of the coming week; a plan that creates or changes a routine starting in a busier hour breaks the rule. `steward schedule` shows the week.',
          anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }],
          errorMessage: 'must be a whole number ≥ 1, or null to switch the rule off',
        },
      },
    },
  },
};
