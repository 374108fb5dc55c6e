/* jvms-record-expr.h: the expressions of the Performance Explorer (issue 22, docs/records.md):
 * filters over records and metrics computed from other metrics, checked when entered.
 *
 *   expr    := or
 *   or      := and { "||" and }
 *   and     := not { "&&" not }
 *   not     := "!" not | compare
 *   compare := sum [ ("==" | "!=" | "<" | "<=" | ">" | ">=") sum | ("~" | "!~") STRING ]
 *   sum     := product { ("+" | "-") product }
 *   product := unary { ("*" | "/" | "%") unary }
 *   unary   := "-" unary | primary
 *   primary := NUMBER [ "ns" | "us" | "µs" | "ms" | "s" ] | STRING | NAME | "(" expr ")"
 *
 * A NAME is a column of the record table (a field or a metric: `duration`, `cycles`,
 * `task-clock`, a metric the user added): letters, digits, `_`, `.`, `:`, and `-` followed by a
 * letter when the longer name is a column (`cache-misses`; write `a - b` to subtract). A STRING
 * is quoted with " or ', with \ escaping the quote and itself. A number with a unit is in
 * nanoseconds. `~` matches a regular expression (GRegex, PCRE syntax) anywhere in a string.
 * Types are checked when parsed: arithmetic and order on numbers, == and != on two numbers or two
 * strings, ~ on a string, && || ! on conditions (a number is true when not zero). A missing value
 * (NaN, a missing string) makes a comparison false and arithmetic missing; so does a division by
 * zero at a record, while a constant division by zero is refused.
 *
 * Threads: an expression is evaluated from one thread at a time (it remembers the matches of its
 * regular expressions).
 *
 * Errors (JVMS_RECORD_EXPR_ERROR) name the expression and the 1-based character position, and
 * list the known names for an unknown one. Nesting deeper than 256 is refused (no unbounded
 * recursion on hostile input).
 */
#pragma once

#include <glib.h>

#include "jvms-record-table.h"

G_BEGIN_DECLS

#define JVMS_RECORD_EXPR_ERROR (jvms_record_expr_error_quark ())
GQuark jvms_record_expr_error_quark (void);

typedef enum
{
  JVMS_RECORD_EXPR_ERROR_SYNTAX,
  JVMS_RECORD_EXPR_ERROR_UNKNOWN_NAME,
  JVMS_RECORD_EXPR_ERROR_TYPE,
  JVMS_RECORD_EXPR_ERROR_DIVISION_BY_ZERO,
  JVMS_RECORD_EXPR_ERROR_REGEX,
  JVMS_RECORD_EXPR_ERROR_NAME_TAKEN,
} JvmsRecordExprError;

typedef enum
{
  JVMS_RECORD_EXPR_NUMBER,
  JVMS_RECORD_EXPR_CONDITION,
  JVMS_RECORD_EXPR_STRING,
} JvmsRecordExprType;

typedef struct _JvmsRecordExpr JvmsRecordExpr;

/* Parses and checks @text against @table's columns. */
JvmsRecordExpr     *jvms_record_expr_parse       (const char       *text,
                                                  JvmsRecordTable  *table,
                                                  GError          **error);
void                jvms_record_expr_free        (JvmsRecordExpr   *self);
JvmsRecordExprType  jvms_record_expr_get_result  (JvmsRecordExpr   *self);
const char         *jvms_record_expr_get_text    (JvmsRecordExpr   *self);

/* A number (NaN: missing) for a number expression; 1, 0 or NaN for others. @table is the one the
 * expression was parsed for (its interned strings key the remembered matches). */
double              jvms_record_expr_eval_number (JvmsRecordExpr   *self,
                                                  JvmsRecordTable  *table,
                                                  guint64           row);
/* Whether @row passes: a condition, or a number that is not zero (missing: FALSE). */
gboolean            jvms_record_expr_eval_condition (JvmsRecordExpr *self,
                                                     JvmsRecordTable *table,
                                                     guint64          row);

/* "NAME=EXPR": adds the metric column NAME to @table, computed for every row. FALSE with an
 * error naming @definition when it is not of that form, NAME is taken or not a name, or EXPR is
 * not a number expression. Returns the column's index in *@column (may be NULL). */
gboolean            jvms_record_expr_add_metric  (JvmsRecordTable  *table,
                                                  const char       *definition,
                                                  guint            *column,
                                                  GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsRecordExpr, jvms_record_expr_free)

G_END_DECLS
