#ifndef FW_MIGRATIONS_H
#define FW_MIGRATIONS_H
/* Compiled from schema/migrations/NNNN-*.sql; fw_migrations[i] takes the DB from user_version i to i+1. */
extern const char *const fw_migrations[];
extern const int fw_migration_count;
#endif
