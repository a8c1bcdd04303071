// The names of the platform API's wire shapes, for the rest of the code. Each is declared once,
// as the schema that checks or describes it, and its type is read off that schema here
// (typedSchema.ts `Static`), so no field is written twice:
// - what steward reads: the response shapes of shapes.ts, as the check leaves them (absent
//   nullable fields filled in as null, fields it passes over as `unknown`);
// - what steward sends: the request bodies of the vendor contract (contract/), exactly what the
//   vendor documents (the contract test also holds every request sent to them);
// - what only the emulator serves (a routine with its server-managed fields, a document's folder,
//   the org role): the contract's answers, as the vendor documents them.

export type {
  ApiKeyList,
  ApiKeyRecord,
  CreditControls,
  CreditControlSettings,
  DocumentLabelsPatchResult,
  DocumentList,
  DocumentRecord,
  EmailDestination,
  EntityGroupCreditLimitList,
  EntityGroupCreditLimitPatchResult,
  EntityGroupCreditLimitRecord,
  FolderLabelsPatchResult,
  FolderList,
  FolderRecord,
  Label,
  LabelList,
  ModelBranch,
  ModelList,
  ModelRecord,
  ModelTopic,
  ModelTopicList,
  PageInfo,
  Routine,
  RoutineDestination,
  RoutineList,
  ScimGroup,
  ScimList,
  ScimUser,
  SlackDestination,
  UserCreditLimitList,
  UserCreditLimitPatchResult,
  UserCreditLimitRecord,
  UserCreditUsage,
  UserCreditUsageList,
  UserGroupCreditLimitList,
  UserGroupCreditLimitPatchResult,
  UserGroupCreditLimitRecord,
  Whoami,
  WhoamiModelRole,
  WhoamiUser,
} from './shapes.js';
export type {
  CreditControlsPatch,
  EntityGroupCreditLimitPatch,
  EntityGroupCreditLimitWrite,
  UserCreditLimitPatch,
  UserCreditLimitWrite,
  UserGroupCreditLimitPatch,
  UserGroupCreditLimitWrite,
} from './contract/creditControls.js';
export type { DocumentedRoutine, RoutineCreate, RoutineLastRun, RoutinePatch, RoutinePut } from './contract/routines.js';
export type { DocumentFolder, LabelChanges as DocumentLabelsPatch, LabelChanges as FolderLabelsPatch, LabelCreate, LabelUpdate } from './contract/content.js';
export type { ApiKeyType, KeyScope, OrgRole } from './contract/identity.js';
export { CREDIT_CONTROL_FIELDS } from './contract/creditControls.js';
