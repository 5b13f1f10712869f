#ifndef FW_VERSION_H
#define FW_VERSION_H
/*
 * The build's `git describe` (build/gen/version.c, rewritten only when it
 * changes): one object carries it, so a rebuild at another commit never
 * mixes versions (a -DFW_VERSION define reached only the objects that
 * happened to recompile: documents said 2dc7489-dirty long after).
 */
extern const char fw_version[];

#endif
