// The names of the platform API's wire shapes, for the rest of the code. Each is declared once,
// as the schema that checks or describes it, and its type is read off that schema here
// (../typedSchema.ts `Static`), so no field is written twice:
// - what steward reads: the response shapes of shapes.ts, as the check leaves them (absent
//   nullable fields filled in as null, fields it passes over as `unknown`);
// - what steward sends: the request bodies of the vendor contract (contract/), exactly what the
//   vendor documents (the contract test also holds every request sent to them);
// - what only the emulator serves (a routine with its server-managed fields, a document's folder,
//   the org role): the contract's answers, as the vendor documents them.

export type {
  ApiKeyRecord,
  CreditControls,
  CreditControlSettings,
  DocumentLabelsPatchResult,
  DocumentRecord,
  EmailDestination,
  EntityGroupCreditLimitPatchResult,
  EntityGroupCreditLimitRecord,
  FolderLabelsPatchResult,
  FolderRecord,
  Label,
  ModelRecord,
  ModelTopic,
  PageInfo,
  Routine,
  RoutineDestination,
  ScimGroup,
  ScimList,
  ScimUser,
  SlackDestination,
  UserCreditLimitPatchResult,
  UserCreditLimitRecord,
  UserGroupCreditLimitPatchResult,
  UserGroupCreditLimitRecord,
  Whoami,
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
