// Request bodies of the customer module.
import { z } from 'zod';
import { array, body, bulk, idValue, integer, opt, requiredText, text } from './fields';

/** POST /queuegroups: body not shown by the spec; the likely field is typed, others kept. */
export const createQueueGroupBody = body({ name: opt(text()) });
export type CreateQueueGroupBody = z.infer<typeof createQueueGroupBody>;

/** PATCH /queuegroups/{id} */
export const patchQueueGroupBody = createQueueGroupBody.partial();
export type PatchQueueGroupBody = z.infer<typeof patchQueueGroupBody>;

/** PATCH /users (bulk). location_id is an integer here but a string in the User resource: both pass. */
export const bulkPatchUsersBody = bulk(
  body({ id: integer(), location_id: opt(idValue()), groups: opt(array()) }),
);
export type BulkPatchUsersBody = z.infer<typeof bulkPatchUsersBody>;

/** POST /usergroups */
export const createUserGroupBody = body({ name: requiredText(), color: opt(text()) });
export type CreateUserGroupBody = z.infer<typeof createUserGroupBody>;

/** PATCH /usergroups/{id} */
export const patchUserGroupBody = createUserGroupBody.partial();
export type PatchUserGroupBody = z.infer<typeof patchUserGroupBody>;

/** POST /usergrouppolicies */
export const createUserGroupPolicyBody = body({ name: requiredText(), color: opt(text()) });
export type CreateUserGroupPolicyBody = z.infer<typeof createUserGroupPolicyBody>;

/** PATCH /usergrouppolicies/{id} */
export const patchUserGroupPolicyBody = createUserGroupPolicyBody.partial();
export type PatchUserGroupPolicyBody = z.infer<typeof patchUserGroupPolicyBody>;
