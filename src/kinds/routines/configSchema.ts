// The `routines:` section of a configuration file: this kind's part of the config schema, with
// the destinations a routine delivers to, what its `ignore` may name, what expiring does to it,
// the identities lower-cased on load and the text that may span lines, and its checks of what the
// schema cannot say (configChecks.ts). config/assembleSchema.ts puts it together with the other
// kinds' (kinds/configRegistry.ts lists them); `npm run generate` writes schemas/steward.schema.json
// and the config's TypeScript types from it.
import type { KindConfigSchema } from '../../config/assembleSchema.js';
import { STEWARD_SETTING } from '../../config/ignore.js';
import { isRecord } from '../../config/sources.js';
import { emailKey, idKey } from '../../domain/rules.js';
import { checkRoutineReferences, checkRoutines, refusedIgnoreUnderPut } from './configChecks.js';

const MODEL_REFUSED = 'changing the model can replace the routine, and it takes the branch and topic with it';
const REPLACES = 'changing it replaces the routine';

export const routinesConfigSchema: KindConfigSchema = {
  kinds: ['routines'],
  sections: {
    routines: {
      schema: {
        description: 'AI routines: scheduled prompts delivered by e-mail or Slack. A routine is identified by its name.',
        type: 'array',
        items: { $ref: '#/$defs/routine' },
      },
      prunable: {
        prune: 'Delete routines that are not declared (only those of the owners steward manages).',
        ignore: 'Ignored fields of every routine: `description`, `prompt`, `schedule`, `timezone`, `destination`, `paused`.',
        protect: 'true, or the names of routines that are never deleted.',
        ignoreRules: {
          noun: 'routine',
          fields: ['description', 'prompt', 'schedule', 'timezone', 'destination', 'paused'],
          refused: {
            name: 'it identifies the routine',
            owner: 'it names whose routine it is',
            model: MODEL_REFUSED,
            modelId: MODEL_REFUSED,
            branch: REPLACES,
            branchId: REPLACES,
            topicName: REPLACES,
            renamedFrom: STEWARD_SETTING,
            protect: STEWARD_SETTING,
            duplicates: STEWARD_SETTING,
            ignore: STEWARD_SETTING,
          },
          refusedIn: refusedIgnoreUnderPut,
        },
      },
      expiry: {
        companion: 'onExpiry',
        undo: (entry) => (entry.onExpiry === 'pause' ? 'pauses the routine' : 'deletes the routine'),
        entry: (entry) => `routine "${String(entry.name)}"`,
      },
      normalize: routineAsLoaded,
      multiline: ['prompt', 'description'],
    },
  },
  definitions: {
    routine: {
      description: 'A scheduled AI prompt whose result is delivered to one destination.',
      type: 'object',
      additionalProperties: false,
      required: ['name', 'prompt', 'schedule', 'timezone', 'destination'],
      oneOf: [{ required: ['model'] }, { required: ['modelId'] }],
      errorMessage: 'must name the model by exactly one of `model` and `modelId`',
      properties: {
        name: {
          description: 'Customer-visible name, used as the e-mail subject; identifies the routine (unique in the configuration).',
          type: 'string',
          minLength: 1,
        },
        owner: {
          description: 'E-mail of the user who owns the routine (organization API keys act for that user). Default: the caller.',
          type: 'string',
        },
        prompt: {
          description: 'Natural-language prompt executed on each run.',
          type: 'string',
          minLength: 1,
        },
        schedule: {
          description:
            'Six-field cron: minute hour day-of-month month day-of-week year, `?` in exactly one day field; at most hourly. Example: "0 9 ? * MON *".',
          type: 'string',
        },
        timezone: {
          description: 'IANA timezone used to evaluate the schedule, e.g. Europe/Berlin or UTC.',
          type: 'string',
        },
        model: {
          description:
            'Name of the shared model the prompt runs against, resolved in each deployment (model ids differ between deployments). Exactly one of model and modelId. Changing it replaces the routine.',
          type: 'string',
          minLength: 1,
        },
        modelId: {
          description:
            'Id (uuid) of the shared model the prompt runs against; prefer `model` (a name), since ids differ per deployment. Exactly one of model and modelId.',
          type: 'string',
        },
        branch: {
          description:
            'Name of a branch of the model, resolved in each deployment, or null for the main branch; alternative to branchId. Changing it replaces the routine.',
          type: ['string', 'null'],
          minLength: 1,
        },
        branchId: {
          description:
            'Id (uuid) of a branch of the shared model, or null for the main branch; prefer `branch` (a name). Changing it replaces the routine.',
          type: ['string', 'null'],
        },
        topicName: {
          description: 'Topic that scopes query generation, or null. Changing it replaces the routine.',
          type: ['string', 'null'],
        },
        description: {
          description: 'Display-only notes, or null.',
          type: ['string', 'null'],
        },
        destination: {
          description: "Where each run's result goes: one e-mail destination or one Slack recipient.",
          type: 'object',
          required: ['type'],
          discriminator: { propertyName: 'type' },
          oneOf: [{ $ref: '#/$defs/emailDestination' }, { $ref: '#/$defs/slackDestination' }],
        },
        renamedFrom: {
          description:
            'Former names of this routine: a live routine of the same owner under one of them is renamed in place, keeping its id and run history.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
        paused: {
          description: 'true keeps the routine but stops its runs; default false.',
          $ref: '#/$defs/boolean',
        },
        duplicates: {
          description:
            'Several live routines of this name and owner: `refuse` (default) stops the plan and names them; `delete-identical` plans the deletion of those identical to the oldest one that matches this routine, keeping the oldest. Namesakes that differ are never deleted this way.',
          enum: ['refuse', 'delete-identical'],
        },
        until: {
          description: 'When this entry stops being in force; from then on it is undone, even where prune is off.',
          $ref: '#/$defs/until',
        },
        onExpiry: {
          description: 'What happens to the routine once `until` has passed: delete it (default) or pause it.',
          enum: ['delete', 'pause'],
        },
        ignore: {
          description:
            'Fields of this routine steward sets when it creates it and never changes afterwards (live changes made in the app stay): `description`, `prompt`, `schedule`, `timezone`, `destination`, `paused`. Identity fields and fields whose change replaces the object cannot be ignored.',
          $ref: '#/$defs/ignoreList',
        },
        protect: {
          description: 'Never delete this routine, even when it is no longer declared.',
          $ref: '#/$defs/boolean',
        },
      },
    },
    emailDestination: {
      description: 'Delivery by e-mail to addresses and user groups.',
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: {
          description: 'Destination kind.',
          const: 'email',
        },
        recipientEmails: {
          description: 'E-mail addresses of direct recipients; default none.',
          type: 'array',
          items: { type: 'string' },
        },
        userGroupIds: {
          description: 'Ids of user groups that receive the result; default none.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
      },
    },
    slackDestination: {
      description: 'Delivery to one Slack channel or user.',
      type: 'object',
      additionalProperties: false,
      required: ['type', 'recipientId', 'slackRecipientType'],
      properties: {
        type: {
          description: 'Destination kind.',
          const: 'slack',
        },
        recipientId: {
          description: 'Slack id of the recipient: C… (or G…) for a channel, U… (or W…) for a user.',
          type: 'string',
        },
        slackRecipientType: {
          description: 'Whether recipientId is a channel or a user.',
          enum: ['channel', 'users'],
        },
      },
    },
  },
  checks: [checkRoutines, checkRoutineReferences],
};

/**
 * A routine as the loaded configuration holds it: its owner, model, branch and recipients
 * lower-cased (e-mails and uuids compare case-insensitively), and an e-mail destination with both
 * recipient lists, as the loaded types promise.
 */
function routineAsLoaded(routine: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...routine };
  if (typeof routine.owner === 'string') copy.owner = emailKey(routine.owner);
  if (typeof routine.modelId === 'string') copy.modelId = idKey(routine.modelId);
  if (typeof routine.branchId === 'string') copy.branchId = idKey(routine.branchId);
  if (isRecord(routine.destination) && routine.destination.type === 'email') {
    const { recipientEmails = [], userGroupIds = [] } = routine.destination;
    copy.destination = {
      ...routine.destination,
      recipientEmails: Array.isArray(recipientEmails) ? recipientEmails.map((email) => (typeof email === 'string' ? emailKey(email) : email)) : recipientEmails,
      userGroupIds: Array.isArray(userGroupIds) ? userGroupIds.map((id) => (typeof id === 'string' ? idKey(id) : id)) : userGroupIds,
    };
  }
  return copy;
}
