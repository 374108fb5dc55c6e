/* jfr-shapes.h: well-formed JFR files with one extreme property each (issue 28): the inputs
 * that once cost a reader far more than their size. Used by test-jfr-hostile and as fuzz seeds
 * (fuzz-jfr-regress --write-corpus). Each builder returns the whole file. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Classes D0 … D(levels-1), each holding @fanout inline fields of the one below; D0 holds one
 * int when @leaf_int, nothing otherwise. Declared top-down, or bottom-up when @reversed. A
 * checkpoint holds one constant of the top class (pool of D(levels-1)) when @in_pool; events
 * of a type "test.Dag" hold the top class as a field before their startTime when @in_event.
 * @n_events events of "test.Plain" (startTime, an int) follow. */
GBytes *jfr_shape_dag (guint levels, guint fanout, gboolean leaf_int, gboolean reversed,
                       gboolean in_pool, gboolean in_event, guint n_events);

/* A class "test.Node" with @fanout constant-pool fields of its own type. With @levels 0 the
 * pool holds one constant (key 1) referring to itself in every field; else constants 1 …
 * @levels, each referring in every field to the one below (constant 1 to key 0, undefined):
 * a DAG whose expansion has @fanout^@levels leaves. @n_events events of "test.Ref" refer to
 * the top one. */
GBytes *jfr_shape_constants (guint fanout, guint levels, guint n_events);

/* @n_chunks small chunks, each with one event; every chunk has its own metadata id when
 * @distinct_metadata (the metadata contents differ too), else they share one. With @high_id
 * each metadata also declares a class of id 65000 (ids below 65536 are HotSpot's). */
GBytes *jfr_shape_many_chunks (guint n_chunks, gboolean distinct_metadata, gboolean high_id);

/* A metadata record whose root holds @n_tiny extra elements of three bytes each (a name, no
 * attribute, no child), beside a valid type table; @n_events events. */
GBytes *jfr_shape_tiny_elements (guint n_tiny, guint n_events);

/* @n_chunks chunks of @events_per_chunk events each, one metadata: a plain multi-chunk file. */
GBytes *jfr_shape_plain (guint n_chunks, guint events_per_chunk);

/* A stack-trace file for the stack tests: see test-jfr-stacks.c. */

G_END_DECLS
