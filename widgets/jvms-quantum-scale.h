/* jvms-quantum-scale.h: the whole trace's scale of a quantum shade (issue 22, docs/records.md,
 * "The shade's scale"). The threads and CPUs views shade each quantum at 0.3 + 0.7 × value /
 * top; the top is one number per trace and shade, so scrolling, zooming or the view never
 * changes it and the window and `jvmscope-cli render` agree: the largest value the shade has
 * anywhere a thread of the JVM is on a CPU (for a counter read at each switch, the largest
 * count `jvmscope-cli records` gives a quantum), found by one pass over each JVM thread's
 * kernel state and the shade's counters in the complete history.
 *
 * Values found are kept per history and shade (a few, main thread only). The window asks a
 * worker (a GTask: the pass reads every interval of the threads' kernel states, seconds on a
 * recording of half a million quanta) and draws with the largest value on screen until it is
 * in; `render` computes it at once.
 */
#pragma once

#include "jvms-quantum-lane.h"
#include "jvms-session.h"

G_BEGIN_DECLS

/* TRUE with the kept top of @mode's shade on @history in @out (NaN when the shade has no value
 * anywhere); FALSE when not known yet. */
gboolean jvms_quantum_scale_lookup  (const JvmsQuantumMode *mode,
                                     JvmsHistory           *history,
                                     double                *out);
/* Computes and keeps the top of @shade on the complete @history now (render). */
void     jvms_quantum_scale_prepare (JvmsHistory           *history,
                                     const char            *shade);
/* Starts a worker that finds the top of @mode's shade on the complete @history (none when one
 * is already at it); once it is kept, @session's quantum-shade is notified when @session still
 * shows @history with that shade, so that its views draw again with it. */
void     jvms_quantum_scale_request (const JvmsQuantumMode *mode,
                                     JvmsHistory           *history,
                                     JvmsSession           *session);

G_END_DECLS
