import type { Kysely } from 'kysely';

/**
 * The identity an `oidc:` operator entry is bound to: the provider's issuer and the person's subject there, set at
 * their first sign-in (decision 81). One entry per identity; an entry bound once is nobody else's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operators').addColumn('oidc_issuer', 'text').addColumn('oidc_subject', 'text').execute();
  await db.schema
    .createIndex('operators_oidc_identity')
    .on('operators')
    .columns(['oidc_issuer', 'oidc_subject'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('operators_oidc_identity').execute();
  await db.schema.alterTable('operators').dropColumn('oidc_issuer').dropColumn('oidc_subject').execute();
}
