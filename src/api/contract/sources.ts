// Where each fact of the contract comes from (../shared/spec/vendor-contract.md restates them with
// the commits read). An operation names its sources by these tags.

export const SOURCES = {
  RT: 'api-evangelist/omni openapi/omni-ai-routines-api-openapi.yml @ f6b69ce5 (docs OpenAPI: AI routines)',
  CC: 'api-evangelist/omni openapi/omni-ai-credit-controls-api-openapi.yml @ 1d6e0de9 (docs OpenAPI: AI credit controls)',
  WH: 'api-evangelist/omni openapi/omni-whoami-api-openapi.yml @ 8eba9ae6 (docs OpenAPI: whoami)',
  LB: 'api-evangelist/omni openapi/omni-labels-api-openapi.yml @ f6b69ce5 (docs OpenAPI: labels)',
  DL: 'api-evangelist/omni openapi/omni-document-labels-api-openapi.yml @ f6b69ce5 (docs OpenAPI: document labels)',
  DO: 'api-evangelist/omni openapi/omni-documents-api-openapi.yml @ f6b69ce5 (docs OpenAPI: documents)',
  FO: 'api-evangelist/omni openapi/omni-folders-api-openapi.yml @ f6b69ce5 (docs OpenAPI: folders)',
  US: 'api-evangelist/omni openapi/omni-users-api-openapi.yml @ f6b69ce5 (docs OpenAPI: SCIM users)',
  UG: 'api-evangelist/omni openapi/omni-user-groups-api-openapi.yml @ f6b69ce5 (docs OpenAPI: SCIM groups)',
  MO: 'api-evangelist/omni openapi/omni-models-api-openapi.yml @ f6b69ce5 (docs OpenAPI: models)',
  AK: 'api-evangelist/omni openapi/omni-api-tokens-api-openapi.yml @ f6b69ce5 (docs OpenAPI: API tokens)',
  DOCS: 'docs.omni.co operation pages (api/...), whose .md form embeds the operation',
  'DOCS:user-group-limits': 'docs.omni.co api/ai-credit-controls/list- and set-individual-user-groups-ai-credit-limits: the entries and semantics; the wrapper key and record fields by analogy with users and entity groups (gaps.md)',
  'DOCS:folder-labels': 'docs.omni.co api/folder-labels/bulk-update-folder-labels',
  CLI: 'the vendor CLI\'s OpenAPI file (../shared/reference/openapi.json; exploreomni/cli api/openapi.json @ 37f1049a)',
  SDK: 'exploreomni/omni-python-sdk, the generated client (routine_update @ 66f91dd2, ai_credit_controls_response @ 5e2bec12)',
  OK: 'exploreomni/OmniKit server/services/omniApiContracts.ts @ 1385ab1e: the credit-usage reads (`POST /api/v1/ai/credit-usage/users`, `…/entity-groups`) as documented, read-only operations',
  'OK+SK:usage-answer': 'the credit-usage request from OmniKit and the agent skills (`{userIds: [membership ids]}`, at most 1,000, no usage = 0); the answer `{users: [{userId, creditsUsed}], periodStart, periodEnd}` is steward\'s choice after the credit controls\' field names (no vendor source shows it: docs/api-contract.md, OPEN)',
  SK: 'exploreomni/omni-agent-skills skills/omni-admin (SKILL.md @ 8c0c2c33, references/ai-credits.md @ 91d06afb)',
} as const;

export type SourceTag = keyof typeof SOURCES;
