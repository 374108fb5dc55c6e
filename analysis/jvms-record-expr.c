/* jvms-record-expr.c: a recursive-descent parser and tree evaluator for record filters and
 * metrics (jvms-record-expr.h). */
#include "jvms-record-expr.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (jvms-record-expr-error-quark, jvms_record_expr_error)

#define MAX_DEPTH 256

typedef enum
{
  N_NUMBER, N_STRING, N_COLUMN, N_NEG, N_ADD, N_SUB, N_MUL, N_DIV, N_MOD,
  N_EQ, N_NE, N_LT, N_LE, N_GT, N_GE, N_MATCH, N_NOT_MATCH, N_AND, N_OR, N_NOT,
} NodeKind;

typedef struct Node Node;
struct Node
{
  NodeKind            kind;
  JvmsRecordExprType  type;
  gsize               pos;
  double              number;
  char               *string;
  guint               column;
  GRegex             *regex;
  /* The table interns its strings: a column of thread or method names holds few distinct
   * pointers, so a match is remembered per pointer (up to MATCH_CACHE_MAX of them). */
  GHashTable         *matches;
  Node               *a, *b;
};

#define MATCH_CACHE_MAX 65536

struct _JvmsRecordExpr
{
  char      *text;
  Node      *root;
  GPtrArray *nodes; /* owns every Node */
};

typedef struct
{
  const char      *text;
  gsize            at;
  JvmsRecordTable *table;
  JvmsRecordExpr  *expr;
  guint            depth;
  GError          *error;
} Parser;

static void
node_free (gpointer data)
{
  Node *n = data;
  g_free (n->string);
  if (n->regex != NULL)
    g_regex_unref (n->regex);
  if (n->matches != NULL)
    g_hash_table_unref (n->matches);
  g_free (n);
}

void
jvms_record_expr_free (JvmsRecordExpr *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->nodes);
  g_free (self->text);
  g_free (self);
}

static Node *
node_new (Parser *p, NodeKind kind, JvmsRecordExprType type, gsize pos)
{
  Node *n = g_new0 (Node, 1);
  n->kind = kind;
  n->type = type;
  n->pos = pos;
  g_ptr_array_add (p->expr->nodes, n);
  return n;
}

G_GNUC_PRINTF (4, 5) static Node *
fail (Parser *p, JvmsRecordExprError code, gsize pos, const char *format, ...)
{
  if (p->error != NULL)
    return NULL;
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  /* The position in characters, as a user counts them. */
  glong column = g_utf8_validate (p->text, (gssize) pos, NULL)
                   ? g_utf8_strlen (p->text, (gssize) pos) + 1 : (glong) pos + 1;
  g_autofree char *shown = g_utf8_make_valid (p->text, -1);
  g_set_error (&p->error, JVMS_RECORD_EXPR_ERROR, code, "“%s”, at character %ld: %s", shown,
               column, what);
  return NULL;
}

static void
skip_space (Parser *p)
{
  while (g_ascii_isspace (p->text[p->at]))
    p->at++;
}

/* Whether the text at the cursor starts with @token (then it is consumed). */
static gboolean
accept (Parser *p, const char *token)
{
  skip_space (p);
  gsize n = strlen (token);
  if (strncmp (p->text + p->at, token, n) != 0)
    return FALSE;
  p->at += n;
  return TRUE;
}

static gboolean
name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == ':';
}

static const char *
type_name (JvmsRecordExprType t)
{
  return t == JVMS_RECORD_EXPR_NUMBER ? "a number" : t == JVMS_RECORD_EXPR_STRING ? "a string" : "a condition";
}

static char *
known_names (JvmsRecordTable *table)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < jvms_record_table_get_n_columns (table); i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, jvms_record_table_get_name (table, i));
    }
  return g_string_free (s, FALSE);
}

static Node *parse_or (Parser *p);

static Node *
parse_name (Parser *p)
{
  gsize start = p->at;
  gsize end = start;
  gsize first_dash = 0;
  while (name_char (p->text[end])
         || (p->text[end] == '-' && g_ascii_isalpha (p->text[end + 1]) && end > start))
    {
      if (p->text[end] == '-' && first_dash == 0)
        first_dash = end;
      end++;
    }
  g_autofree char *name = g_strndup (p->text + start, end - start);
  int column = jvms_record_table_lookup (p->table, name);
  if (column < 0 && first_dash > 0)
    {
      /* `a-b` where `a-b` is no column: the name ends before the minus. */
      end = first_dash;
      g_free (name);
      name = g_strndup (p->text + start, end - start);
      column = jvms_record_table_lookup (p->table, name);
    }
  if (column < 0)
    {
      g_autofree char *known = known_names (p->table);
      return fail (p, JVMS_RECORD_EXPR_ERROR_UNKNOWN_NAME, start, "unknown name “%s” (known: %s)",
                   name, known);
    }
  p->at = end;
  JvmsRecordColumnKind kind = jvms_record_table_get_kind (p->table, (guint) column);
  Node *n = node_new (p, N_COLUMN, kind == JVMS_RECORD_COLUMN_STRING ? JVMS_RECORD_EXPR_STRING
                                                                     : JVMS_RECORD_EXPR_NUMBER, start);
  n->column = (guint) column;
  return n;
}

static Node *
parse_string (Parser *p)
{
  gsize start = p->at;
  char quote = p->text[p->at++];
  GString *s = g_string_new (NULL);
  for (;;)
    {
      char c = p->text[p->at];
      if (c == '\0')
        {
          g_string_free (s, TRUE);
          return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, start, "the string is not closed");
        }
      p->at++;
      if (c == quote)
        break;
      if (c == '\\' && (p->text[p->at] == quote || p->text[p->at] == '\\'))
        c = p->text[p->at++];
      g_string_append_c (s, c);
    }
  Node *n = node_new (p, N_STRING, JVMS_RECORD_EXPR_STRING, start);
  n->string = g_string_free (s, FALSE);
  return n;
}

static Node *
parse_number (Parser *p)
{
  gsize start = p->at;
  gsize end = start;
  while (g_ascii_isdigit (p->text[end]))
    end++;
  if (p->text[end] == '.')
    {
      end++;
      while (g_ascii_isdigit (p->text[end]))
        end++;
    }
  if ((p->text[end] == 'e' || p->text[end] == 'E')
      && (g_ascii_isdigit (p->text[end + 1])
          || ((p->text[end + 1] == '+' || p->text[end + 1] == '-') && g_ascii_isdigit (p->text[end + 2]))))
    {
      end += 2;
      while (g_ascii_isdigit (p->text[end]))
        end++;
    }
  g_autofree char *digits = g_strndup (p->text + start, end - start);
  if (strcmp (digits, ".") == 0)
    return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, start, "a number was expected");
  double value = g_ascii_strtod (digits, NULL);
  static const struct { const char *unit; double scale; } units[] = {
    { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      gsize n = strlen (units[i].unit);
      if (strncmp (p->text + end, units[i].unit, n) == 0 && !name_char (p->text[end + n]))
        {
          value *= units[i].scale;
          end += n;
          break;
        }
    }
  if (name_char (p->text[end]))
    return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, end, "a number ends with a unit (ns, us, ms, s) or nothing");
  if (!isfinite (value))
    return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, start, "the number is too large");
  p->at = end;
  Node *n = node_new (p, N_NUMBER, JVMS_RECORD_EXPR_NUMBER, start);
  n->number = value;
  return n;
}

static Node *
parse_primary (Parser *p)
{
  skip_space (p);
  char c = p->text[p->at];
  if (c == '(')
    {
      gsize open = p->at++;
      Node *n = parse_or (p);
      if (n == NULL)
        return NULL;
      if (!accept (p, ")"))
        return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, open, "this parenthesis is not closed");
      return n;
    }
  if (c == '"' || c == '\'')
    return parse_string (p);
  if (g_ascii_isdigit (c) || (c == '.' && g_ascii_isdigit (p->text[p->at + 1])))
    return parse_number (p);
  if (g_ascii_isalpha (c) || c == '_')
    return parse_name (p);
  if (c == '\0')
    return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, p->at, "the expression ends too early");
  return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, p->at, "unexpected “%c”", g_ascii_isprint (c) ? c : '?');
}

static gboolean
enter (Parser *p)
{
  if (++p->depth > MAX_DEPTH)
    {
      fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, p->at, "nested more than %d deep", MAX_DEPTH);
      return FALSE;
    }
  return TRUE;
}

static Node *
expect_type (Parser *p, Node *n, JvmsRecordExprType type, const char *what)
{
  if (n == NULL)
    return NULL;
  if (n->type == type || (type == JVMS_RECORD_EXPR_CONDITION && n->type == JVMS_RECORD_EXPR_NUMBER))
    return n;
  return fail (p, JVMS_RECORD_EXPR_ERROR_TYPE, n->pos, "%s needs %s here, not %s", what,
               type_name (type), type_name (n->type));
}

static gboolean
has_column (const Node *n)
{
  if (n == NULL)
    return FALSE;
  return n->kind == N_COLUMN || has_column (n->a) || has_column (n->b);
}

static double eval_number (const Node *n, JvmsRecordTable *table, guint64 row);

static Node *
parse_unary (Parser *p)
{
  if (!enter (p))
    return NULL;
  Node *n;
  gsize pos = (skip_space (p), p->at);
  if (accept (p, "-"))
    {
      Node *a = expect_type (p, parse_unary (p), JVMS_RECORD_EXPR_NUMBER, "“-”");
      n = a != NULL ? node_new (p, N_NEG, JVMS_RECORD_EXPR_NUMBER, pos) : NULL;
      if (n != NULL)
        n->a = a;
    }
  else
    n = parse_primary (p);
  p->depth--;
  return n;
}

static Node *
binary (Parser *p, NodeKind kind, JvmsRecordExprType type, gsize pos, Node *a, Node *b)
{
  if (a == NULL || b == NULL)
    return NULL;
  Node *n = node_new (p, kind, type, pos);
  n->a = a;
  n->b = b;
  return n;
}

typedef struct
{
  const char *token;
  NodeKind    kind;
} Op;

typedef Node *(*ParseFn) (Parser *p);

/* A left-associative chain of @operand joined by @ops, all of @type. */
static Node *
parse_chain (Parser *p, ParseFn operand, const Op *ops, guint n_ops, JvmsRecordExprType type)
{
  Node *n = operand (p);
  for (;;)
    {
      if (n == NULL)
        return NULL;
      skip_space (p);
      gsize pos = p->at;
      const Op *op = NULL;
      for (guint i = 0; i < n_ops && op == NULL; i++)
        if (accept (p, ops[i].token))
          op = &ops[i];
      if (op == NULL)
        return n;
      g_autofree char *what = g_strdup_printf ("“%s”", op->token);
      n = expect_type (p, n, type, what);
      skip_space (p);
      gsize right_pos = p->at;
      Node *b = expect_type (p, operand (p), type, what);
      n = binary (p, op->kind, type, pos, n, b);
      /* A divisor that is the same for every record is known now. */
      if (n != NULL && (op->kind == N_DIV || op->kind == N_MOD) && !has_column (b)
          && eval_number (b, p->table, 0) == 0)
        return fail (p, JVMS_RECORD_EXPR_ERROR_DIVISION_BY_ZERO, right_pos, "division by zero");
    }
}

static Node *
parse_product (Parser *p)
{
  static const Op ops[] = { { "*", N_MUL }, { "/", N_DIV }, { "%", N_MOD } };
  return parse_chain (p, parse_unary, ops, G_N_ELEMENTS (ops), JVMS_RECORD_EXPR_NUMBER);
}

static Node *
parse_sum (Parser *p)
{
  static const Op ops[] = { { "+", N_ADD }, { "-", N_SUB } };
  return parse_chain (p, parse_product, ops, G_N_ELEMENTS (ops), JVMS_RECORD_EXPR_NUMBER);
}

static Node *
parse_compare (Parser *p)
{
  Node *a = parse_sum (p);
  if (a == NULL)
    return NULL;
  skip_space (p);
  gsize pos = p->at;
  if (accept (p, "!~") || accept (p, "~"))
    {
      gboolean negate = p->text[pos] == '!';
      a = expect_type (p, a, JVMS_RECORD_EXPR_STRING, "“~”");
      skip_space (p);
      if (p->text[p->at] != '"' && p->text[p->at] != '\'')
        return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, p->at, "“~” needs a quoted regular expression");
      Node *pattern = parse_string (p);
      if (a == NULL || pattern == NULL)
        return NULL;
      g_autoptr(GError) local = NULL;
      GRegex *regex = g_regex_new (pattern->string, G_REGEX_OPTIMIZE, 0, &local);
      if (regex == NULL)
        return fail (p, JVMS_RECORD_EXPR_ERROR_REGEX, pattern->pos, "bad regular expression: %s",
                     local->message);
      Node *n = binary (p, negate ? N_NOT_MATCH : N_MATCH, JVMS_RECORD_EXPR_CONDITION, pos, a, pattern);
      n->regex = regex;
      n->matches = g_hash_table_new (g_direct_hash, g_direct_equal);
      return n;
    }
  static const struct { const char *op; NodeKind kind; } ops[] = {
    { "==", N_EQ }, { "!=", N_NE }, { "<=", N_LE }, { ">=", N_GE }, { "<", N_LT }, { ">", N_GT },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (accept (p, ops[i].op))
      {
        Node *b = parse_sum (p);
        if (b == NULL)
          return NULL;
        gboolean equality = ops[i].kind == N_EQ || ops[i].kind == N_NE;
        if (a->type == JVMS_RECORD_EXPR_STRING && b->type == JVMS_RECORD_EXPR_STRING && equality)
          return binary (p, ops[i].kind, JVMS_RECORD_EXPR_CONDITION, pos, a, b);
        g_autofree char *what = g_strdup_printf ("“%s”", ops[i].op);
        a = expect_type (p, a, JVMS_RECORD_EXPR_NUMBER, what);
        b = expect_type (p, b, JVMS_RECORD_EXPR_NUMBER, what);
        return binary (p, ops[i].kind, JVMS_RECORD_EXPR_CONDITION, pos, a, b);
      }
  if (p->text[p->at] == '=')
    return fail (p, JVMS_RECORD_EXPR_ERROR_SYNTAX, p->at, "“=” compares as “==”");
  return a;
}

static Node *
parse_not (Parser *p)
{
  if (!enter (p))
    return NULL;
  skip_space (p);
  gsize pos = p->at;
  Node *n;
  if (p->text[p->at] == '!' && p->text[p->at + 1] != '=' && p->text[p->at + 1] != '~')
    {
      p->at++;
      Node *a = expect_type (p, parse_not (p), JVMS_RECORD_EXPR_CONDITION, "“!”");
      n = a != NULL ? node_new (p, N_NOT, JVMS_RECORD_EXPR_CONDITION, pos) : NULL;
      if (n != NULL)
        n->a = a;
    }
  else
    n = parse_compare (p);
  p->depth--;
  return n;
}

static Node *
parse_and (Parser *p)
{
  static const Op ops[] = { { "&&", N_AND } };
  return parse_chain (p, parse_not, ops, G_N_ELEMENTS (ops), JVMS_RECORD_EXPR_CONDITION);
}

static Node *
parse_or (Parser *p)
{
  if (!enter (p))
    return NULL;
  static const Op ops[] = { { "||", N_OR } };
  Node *n = parse_chain (p, parse_and, ops, G_N_ELEMENTS (ops), JVMS_RECORD_EXPR_CONDITION);
  p->depth--;
  return n;
}

JvmsRecordExpr *
jvms_record_expr_parse (const char *text, JvmsRecordTable *table, GError **error)
{
  g_return_val_if_fail (text != NULL && table != NULL, NULL);
  /* Each node takes a character at least: this bounds the tree, and the depth of the
   * evaluation's recursion over a long chain such as 1+1+1+... */
  if (strlen (text) > 4096)
    {
      g_set_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_SYNTAX,
                   "an expression of %" G_GSIZE_FORMAT " bytes is longer than 4096", strlen (text));
      return NULL;
    }
  /* GLib's regular expressions take UTF-8 only (PCRE2 read past a quoted pattern of invalid
   * bytes: a fuzzing finding), and a message quoting the text must be printable. */
  const char *bad = NULL;
  if (!g_utf8_validate (text, -1, &bad))
    {
      g_set_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_SYNTAX,
                   "the expression is not valid UTF-8 (at byte %" G_GSIZE_FORMAT ")", (gsize) (bad - text));
      return NULL;
    }
  g_autoptr(JvmsRecordExpr) expr = g_new0 (JvmsRecordExpr, 1);
  expr->text = g_strdup (text);
  expr->nodes = g_ptr_array_new_with_free_func (node_free);
  Parser p = { .text = expr->text, .table = table, .expr = expr };
  expr->root = parse_or (&p);
  if (expr->root != NULL)
    {
      skip_space (&p);
      if (p.text[p.at] != '\0')
        fail (&p, JVMS_RECORD_EXPR_ERROR_SYNTAX, p.at, "unexpected “%.*s” after the expression",
              (int) MIN (strlen (p.text + p.at), 16), p.text + p.at);
    }
  if (p.error != NULL)
    {
      g_propagate_error (error, p.error);
      return NULL;
    }
  return g_steal_pointer (&expr);
}

JvmsRecordExprType
jvms_record_expr_get_result (JvmsRecordExpr *self)
{
  return self->root->type;
}

const char *
jvms_record_expr_get_text (JvmsRecordExpr *self)
{
  return self->text;
}

static const char *
eval_string (const Node *n, JvmsRecordTable *table, guint64 row)
{
  if (n->kind == N_STRING)
    return n->string;
  return jvms_record_table_get_string (table, n->column, row);
}

static gboolean eval_condition (const Node *n, JvmsRecordTable *table, guint64 row);

static double
eval_number (const Node *n, JvmsRecordTable *table, guint64 row)
{
  switch (n->kind)
    {
    case N_NUMBER:
      return n->number;
    case N_COLUMN:
      return jvms_record_table_get_number (table, n->column, row);
    case N_NEG:
      return -eval_number (n->a, table, row);
    case N_ADD:
      return eval_number (n->a, table, row) + eval_number (n->b, table, row);
    case N_SUB:
      return eval_number (n->a, table, row) - eval_number (n->b, table, row);
    case N_MUL:
      return eval_number (n->a, table, row) * eval_number (n->b, table, row);
    case N_DIV:
    case N_MOD:
      {
        double a = eval_number (n->a, table, row);
        double b = eval_number (n->b, table, row);
        if (b == 0 || isnan (a) || isnan (b))
          return NAN;
        return n->kind == N_DIV ? a / b : fmod (a, b);
      }
    default:
      if (n->type == JVMS_RECORD_EXPR_CONDITION)
        return eval_condition (n, table, row) ? 1 : 0;
      return NAN;
    }
}

static gboolean
eval_condition (const Node *n, JvmsRecordTable *table, guint64 row)
{
  if (n->type == JVMS_RECORD_EXPR_NUMBER)
    {
      double v = eval_number (n, table, row);
      return !isnan (v) && v != 0;
    }
  switch (n->kind)
    {
    case N_AND:
      return eval_condition (n->a, table, row) && eval_condition (n->b, table, row);
    case N_OR:
      return eval_condition (n->a, table, row) || eval_condition (n->b, table, row);
    case N_NOT:
      return !eval_condition (n->a, table, row);
    case N_MATCH:
    case N_NOT_MATCH:
      {
        const char *s = eval_string (n->a, table, row);
        if (s == NULL)
          return FALSE;
        gpointer known = g_hash_table_lookup (n->matches, s);
        gboolean m;
        if (known != NULL)
          m = GPOINTER_TO_INT (known) == 2;
        else
          {
            if (g_utf8_validate (s, -1, NULL))
              m = g_regex_match (n->regex, s, 0, NULL);
            else
              {
                /* A name from a trace need not be UTF-8; the pattern is matched against what
                 * the user reads (invalid bytes shown as U+FFFD). */
                g_autofree char *shown = g_utf8_make_valid (s, -1);
                m = g_regex_match (n->regex, shown, 0, NULL);
              }
            if (g_hash_table_size (n->matches) < MATCH_CACHE_MAX)
              g_hash_table_insert (n->matches, (gpointer) s, GINT_TO_POINTER (m ? 2 : 1));
          }
        return n->kind == N_MATCH ? m : !m;
      }
    case N_EQ:
    case N_NE:
      if (n->a->type == JVMS_RECORD_EXPR_STRING)
        {
          const char *a = eval_string (n->a, table, row);
          const char *b = eval_string (n->b, table, row);
          if (a == NULL || b == NULL)
            return FALSE;
          return (strcmp (a, b) == 0) == (n->kind == N_EQ);
        }
      G_GNUC_FALLTHROUGH;
    case N_LT:
    case N_LE:
    case N_GT:
    case N_GE:
      {
        double a = eval_number (n->a, table, row);
        double b = eval_number (n->b, table, row);
        if (isnan (a) || isnan (b))
          return FALSE;
        switch (n->kind)
          {
          case N_EQ: return a == b;
          case N_NE: return a != b;
          case N_LT: return a < b;
          case N_LE: return a <= b;
          case N_GT: return a > b;
          default:   return a >= b;
          }
      }
    default:
      return FALSE;
    }
}

double
jvms_record_expr_eval_number (JvmsRecordExpr *self, JvmsRecordTable *table, guint64 row)
{
  return eval_number (self->root, table, row);
}

gboolean
jvms_record_expr_eval_condition (JvmsRecordExpr *self, JvmsRecordTable *table, guint64 row)
{
  return eval_condition (self->root, table, row);
}

gboolean
jvms_record_expr_add_metric (JvmsRecordTable *table, const char *definition, guint *column,
                             GError **error)
{
  const char *eq = strchr (definition, '=');
  g_autofree char *name = eq != NULL ? g_strstrip (g_strndup (definition, eq - definition)) : NULL;
  gboolean valid = name != NULL && name[0] != '\0' && (g_ascii_isalpha (name[0]) || name[0] == '_');
  for (const char *c = name; valid && *c != '\0'; c++)
    valid = name_char (*c) || (*c == '-' && g_ascii_isalpha (c[1]));
  if (!valid)
    {
      g_set_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_SYNTAX,
                   "“%s”: a metric is NAME=EXPRESSION, NAME of letters, digits, _ . : and -", definition);
      return FALSE;
    }
  if (jvms_record_table_lookup (table, name) >= 0)
    {
      g_set_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_NAME_TAKEN,
                   "“%s”: the name “%s” is taken", definition, name);
      return FALSE;
    }
  g_autoptr(JvmsRecordExpr) expr = jvms_record_expr_parse (eq + 1, table, error);
  if (expr == NULL)
    return FALSE;
  if (expr->root->type != JVMS_RECORD_EXPR_NUMBER)
    {
      g_set_error (error, JVMS_RECORD_EXPR_ERROR, JVMS_RECORD_EXPR_ERROR_TYPE,
                   "“%s”: a metric is a number, not %s", definition, type_name (expr->root->type));
      return FALSE;
    }
  guint c = jvms_record_table_add_column (table, name, JVMS_RECORD_COLUMN_DOUBLE, TRUE);
  guint64 n = jvms_record_table_get_n_rows (table);
  for (guint64 row = 0; row < n; row++)
    jvms_record_table_set_double (table, c, row, eval_number (expr->root, table, row));
  if (column != NULL)
    *column = c;
  return TRUE;
}
