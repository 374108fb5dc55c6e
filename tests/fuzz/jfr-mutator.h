/* jfr-mutator.h: a structure-aware mutator for JFR files (fuzz-jfr's LLVMFuzzerCustomMutator).
 *
 * Random bytes rarely make a well-formed file with one extreme property, which is what hangs
 * and blows up readers (issue 28). This one parses the input into chunks and records, edits
 * one of them (a metadata record's element tree: fields fanned out, pointed at other classes,
 * made constant-pool references or arrays, classes reordered, chains of new classes, tiny
 * elements; or a record duplicated, dropped or byte-mutated; or a chunk duplicated), then
 * writes the file again with every record size, chunk size and header offset made consistent.
 * Input that does not parse as JFR is left to @mutate_bytes. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef gsize (*JfrMutateBytes) (guint8 *data, gsize size, gsize max_size);

/* Mutates @data (@size bytes, room for @max_size) in place; returns the new size. */
gsize jfr_mutate (guint8 *data, gsize size, gsize max_size, guint seed, JfrMutateBytes mutate_bytes);

G_END_DECLS
