/**
 * @module mappings/user-roles
 * v2 user `role` from NerdGraph user management. v2 roles were `owner`, `admin` and `user` (New Relic
 * docs "List users on your account", ambitioninc/newrelic-api fixtures); NerdGraph has no role, only
 * the groups a user belongs to. A user in one of these groups gets its role; every other user is
 * `user`. No group maps to `owner`: the original user model's single owner has no counterpart
 * [INFERRED proposal: "admin" for users in the "Admin" group; no public source maps groups to roles].
 */
export const roleByGroup = {
  Admin: 'admin', // the default administrators group of a user-management organization
} as const satisfies Record<string, 'owner' | 'admin' | 'user'>

export const defaultRole = 'user'
