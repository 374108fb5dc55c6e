#include "jvms-ctf-layout.h"

#include <string.h>

/* ---- Tokens ---- */

typedef enum
{
  TOK_IDENT,
  TOK_NUMBER,
  TOK_STRING,
  TOK_PUNCT,
} TokKind;

typedef struct
{
  TokKind  kind;
  char    *text;    /* identifier, string contents or punctuation */
  guint64  value;   /* numbers */
} Token;

/* Metadata with more tokens than this (a few MB of TSDL) is left to babeltrace2 alone: the
 * walk would cost more memory than the repair is allowed. */
#define MAX_TOKENS (1u << 19)

static void
token_clear (gpointer p)
{
  Token *t = p;
  if (t->kind != TOK_PUNCT)
    g_free (t->text);
}

static const char *
punct_text (const char *p, gsize len)
{
  if (len == 2)
    return ":=";
  if (len == 3)
    return "...";
  static const char singles[] = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~";
  /* Each of singles as a string of its own. */
  static const char pairs[] = "!\0\"\0#\0$\0%\0&\0'\0(\0)\0*\0+\0,\0-\0.\0/\0:\0;\0<\0=\0>\0?\0@\0[\0\\\0]\0^\0`\0{\0|\0}\0~\0";
  const char *at = *p != '\0' ? strchr (singles, *p) : NULL;
  /* Anything else (bytes that are not text) is one token that matches nothing. */
  return at != NULL ? pairs + 2 * (at - singles) : "";
}

/* NULL when the text has more than MAX_TOKENS tokens. */
static GArray *
tokenize (const char *s)
{
  GArray *tokens = g_array_new (FALSE, TRUE, sizeof (Token));
  g_array_set_clear_func (tokens, token_clear);
  const char *p = s;
  while (*p != '\0')
    {
      if (g_ascii_isspace (*p))
        {
          p++;
          continue;
        }
      if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");
          if (end == NULL)
            break;
          p = end + 2;
          continue;
        }
      if (p[0] == '/' && p[1] == '/')
        {
          while (*p != '\0' && *p != '\n')
            p++;
          continue;
        }
      Token t = { 0 };
      const char *start = p;
      if (g_ascii_isalpha (*p) || *p == '_')
        {
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          t.kind = TOK_IDENT;
          t.text = g_strndup (start, (gsize) (p - start));
        }
      else if (g_ascii_isdigit (*p))
        {
          char *end = NULL;
          t.kind = TOK_NUMBER;
          t.value = g_ascii_strtoull (p, &end, 0);
          p = end > p ? end : p + 1;
          /* Suffixes (U, L) mean nothing here. */
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
        }
      else if (*p == '"')
        {
          p++;
          while (*p != '\0' && *p != '"')
            p += (p[0] == '\\' && p[1] != '\0') ? 2 : 1;
          t.kind = TOK_STRING;
          t.text = g_strndup (start + 1, (gsize) (p - start - 1));
          if (*p == '"')
            p++;
        }
      else
        {
          t.kind = TOK_PUNCT;
          gsize len = (p[0] == ':' && p[1] == '=') ? 2
                    : (p[0] == '.' && p[1] == '.' && p[2] == '.') ? 3 : 1;
          t.text = (char *) punct_text (p, len);
          p += len;
        }
      g_array_append_val (tokens, t);
      if (tokens->len > MAX_TOKENS)
        {
          g_array_unref (tokens);
          return NULL;
        }
    }
  return tokens;
}

/* ---- Counting event classes ---- */

/* Skips blanks and comments from @p. */
static const char *
skip_blank (const char *p)
{
  for (;;)
    {
      if (g_ascii_isspace (*p))
        p++;
      else if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");
          p = end != NULL ? end + 2 : p + strlen (p);
        }
      else if (p[0] == '/' && p[1] == '/')
        p += strcspn (p, "\n");
      else
        return p;
    }
}

guint64
jvms_ctf_tsdl_event_classes (const char *tsdl)
{
  guint64 n = 0;
  guint64 depth = 0;
  const char *p = tsdl;
  while (*(p = skip_blank (p)) != '\0')
    {
      if (*p == '"')
        {
          for (p++; *p != '\0' && *p != '"'; p += (p[0] == '\\' && p[1] != '\0') ? 2 : 1)
            ;
          if (*p == '"')
            p++;
        }
      else if (*p == '{')
        depth++, p++;
      else if (*p == '}')
        depth -= depth > 0, p++;
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *start = p;
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          if (depth == 0 && p - start == 5 && memcmp (start, "event", 5) == 0
              && *skip_blank (p) == '{')
            n++;
        }
      else
        p++;
    }
  return n;
}

/* ---- Types ---- */

typedef enum
{
  TYPE_INT,
  TYPE_STRUCT,
  TYPE_ARRAY,
  TYPE_OTHER,   /* strings, floats, variants, sequences, unknown names: no fixed layout here */
} TypeKind;

typedef enum
{
  ORDER_NATIVE,
  ORDER_LE,
  ORDER_BE,
} Order;

typedef struct Type Type;

typedef struct
{
  char *name;
  Type *type;
} Field;

struct Type
{
  TypeKind kind;
  guint64  size;     /* INT: bits */
  guint64  align;    /* bits; STRUCT: the explicit align(), members add theirs */
  Order    order;
  GArray  *fields;   /* STRUCT: Field */
  Type    *elem;     /* ARRAY */
  guint64  length;   /* ARRAY */
};

typedef struct
{
  GArray     *tokens;
  guint       i;
  GPtrArray  *pool;      /* every Type, freed at the end */
  GHashTable *names;     /* alias, typedef or "struct NAME" → Type */
  Order       trace_order;
  gboolean    has_uuid;
  guint8      uuid[16];
  Type       *header;
  GArray     *streams;   /* StreamDecl */
  guint       depth;     /* of nested structures */
} Parser;

#define MAX_DEPTH 32
/* Sizes past this many bits are not a packet header's: not measured (and no overflow). */
#define MAX_BITS ((guint64) 1 << 40)

typedef struct
{
  guint64  id;
  Type    *context;
} StreamDecl;

static void
type_free (gpointer p)
{
  Type *t = p;
  if (t->fields != NULL)
    {
      for (guint i = 0; i < t->fields->len; i++)
        g_free (g_array_index (t->fields, Field, i).name);
      g_array_unref (t->fields);
    }
  g_free (t);
}

static Type *
type_new (Parser *P, TypeKind kind)
{
  Type *t = g_new0 (Type, 1);
  t->kind = kind;
  g_ptr_array_add (P->pool, t);
  return t;
}

/* Past the end: a token that matches nothing. */
static const Token end_token = { TOK_PUNCT, (char *) "", 0 };

static const Token *
peek (Parser *P, guint ahead)
{
  if (P->i + ahead >= P->tokens->len)
    return &end_token;
  return &g_array_index (P->tokens, Token, P->i + ahead);
}

static gboolean
is (const Token *t, TokKind kind, const char *text)
{
  return t->kind == kind && (text == NULL || g_strcmp0 (t->text, text) == 0);
}

static gboolean
at_punct (Parser *P, const char *text)
{
  return is (peek (P, 0), TOK_PUNCT, text);
}

static gboolean
accept_punct (Parser *P, const char *text)
{
  if (!at_punct (P, text))
    return FALSE;
  P->i++;
  return TRUE;
}

/* Skips a balanced { } block the parser is at. */
static void
skip_block (Parser *P)
{
  guint depth = 0;
  while (P->i < P->tokens->len)
    {
      const Token *t = peek (P, 0);
      P->i++;
      if (is (t, TOK_PUNCT, "{"))
        depth++;
      else if (is (t, TOK_PUNCT, "}") && (depth == 0 || --depth == 0))
        return;
    }
}

/* Skips to after the next ';' outside braces (or to the '}' closing the current block). */
static void
skip_statement (Parser *P)
{
  guint depth = 0;
  while (P->i < P->tokens->len)
    {
      const Token *t = peek (P, 0);
      if (is (t, TOK_PUNCT, "}") && depth == 0)
        return;
      P->i++;
      if (is (t, TOK_PUNCT, "{"))
        depth++;
      else if (is (t, TOK_PUNCT, "}"))
        depth--;
      else if (is (t, TOK_PUNCT, ";") && depth == 0)
        return;
    }
}

static Order
parse_order (const char *s)
{
  if (g_strcmp0 (s, "le") == 0 || g_strcmp0 (s, "little") == 0)
    return ORDER_LE;
  if (g_strcmp0 (s, "be") == 0 || g_strcmp0 (s, "big") == 0 || g_strcmp0 (s, "network") == 0)
    return ORDER_BE;
  return ORDER_NATIVE;
}

static Type *parse_type (Parser *P);

static Type *
parse_integer (Parser *P)
{
  Type *t = type_new (P, TYPE_INT);
  gboolean align_given = FALSE;
  if (!accept_punct (P, "{"))
    {
      t->kind = TYPE_OTHER;
      return t;
    }
  while (P->i < P->tokens->len && !accept_punct (P, "}"))
    {
      const Token *key = peek (P, 0);
      const Token *eq = peek (P, 1);
      const Token *value = peek (P, 2);
      if (is (key, TOK_IDENT, NULL) && is (eq, TOK_PUNCT, "=") && value != NULL)
        {
          if (strcmp (key->text, "size") == 0 && value->kind == TOK_NUMBER)
            t->size = value->value;
          else if (strcmp (key->text, "align") == 0 && value->kind == TOK_NUMBER)
            {
              t->align = value->value;
              align_given = TRUE;
            }
          else if (strcmp (key->text, "byte_order") == 0)
            t->order = parse_order (value->text);
        }
      skip_statement (P);
    }
  if (t->size == 0 || t->size > 64 || (align_given && (t->align == 0 || t->align > 4096)))
    t->kind = TYPE_OTHER;
  if (!align_given)
    t->align = t->size % 8 == 0 ? 8 : 1;
  return t;
}

static void parse_members (Parser *P, Type *structure);

static Type *
parse_struct (Parser *P)
{
  char *name = NULL;
  if (is (peek (P, 0), TOK_IDENT, NULL))
    {
      name = g_strconcat ("struct ", peek (P, 0)->text, NULL);
      P->i++;
    }
  Type *t;
  if (at_punct (P, "{") && P->depth >= MAX_DEPTH)
    {
      /* Nested deeper than any packet header: not measured, and no deeper recursion. */
      skip_block (P);
      t = type_new (P, TYPE_OTHER);
    }
  else if (at_punct (P, "{"))
    {
      P->i++;
      P->depth++;
      t = type_new (P, TYPE_STRUCT);
      t->align = 1;
      t->fields = g_array_new (FALSE, TRUE, sizeof (Field));
      parse_members (P, t);
      P->depth--;
      if (is (peek (P, 0), TOK_IDENT, "align") && is (peek (P, 1), TOK_PUNCT, "(")
          && is (peek (P, 2), TOK_NUMBER, NULL) && is (peek (P, 3), TOK_PUNCT, ")"))
        {
          guint64 a = peek (P, 2)->value;
          if (a > 0 && a <= 4096)
            t->align = MAX (t->align, a);
          P->i += 4;
        }
      if (name != NULL)
        g_hash_table_replace (P->names, g_strdup (name), t);
    }
  else
    {
      t = name != NULL ? g_hash_table_lookup (P->names, name) : NULL;
      if (t == NULL)
        t = type_new (P, TYPE_OTHER);
    }
  g_free (name);
  return t;
}

/* A type named by identifiers ("uint32_t", "unsigned long"). */
static Type *
lookup_words (Parser *P, guint first, guint n)
{
  GString *name = g_string_new (NULL);
  for (guint k = 0; k < n; k++)
    {
      if (k > 0)
        g_string_append_c (name, ' ');
      g_string_append (name, g_array_index (P->tokens, Token, first + k).text);
    }
  Type *t = g_hash_table_lookup (P->names, name->str);
  g_string_free (name, TRUE);
  return t != NULL ? t : type_new (P, TYPE_OTHER);
}

/* A type specifier that starts with a keyword; NULL when it does not. */
static Type *
parse_keyword_type (Parser *P)
{
  const Token *t = peek (P, 0);
  if (!is (t, TOK_IDENT, NULL))
    return NULL;
  if (strcmp (t->text, "integer") == 0)
    {
      P->i++;
      return parse_integer (P);
    }
  if (strcmp (t->text, "struct") == 0)
    {
      P->i++;
      return parse_struct (P);
    }
  if (strcmp (t->text, "enum") == 0)
    {
      /* Its container integer gives the layout. */
      P->i++;
      char *name = NULL;
      if (is (peek (P, 0), TOK_IDENT, NULL))
        {
          name = g_strconcat ("enum ", peek (P, 0)->text, NULL);
          P->i++;
        }
      Type *container = NULL;
      if (accept_punct (P, ":") && P->depth < MAX_DEPTH)
        {
          P->depth++;
          container = parse_type (P);
          P->depth--;
        }
      else if (!at_punct (P, "{") && name != NULL)
        container = g_hash_table_lookup (P->names, name);
      else
        container = g_hash_table_lookup (P->names, "int");
      if (container == NULL)
        container = type_new (P, TYPE_OTHER);
      if (at_punct (P, "{"))
        {
          skip_block (P);
          if (name != NULL)
            g_hash_table_replace (P->names, g_strdup (name), container);
        }
      g_free (name);
      return container;
    }
  if (strcmp (t->text, "variant") == 0 || strcmp (t->text, "floating_point") == 0
      || strcmp (t->text, "string") == 0)
    {
      P->i++;
      while (P->i < P->tokens->len && !at_punct (P, "{") && !at_punct (P, ";")
             && !at_punct (P, ":=") && !(is (peek (P, 0), TOK_IDENT, NULL)
                                         && strcmp (t->text, "variant") != 0))
        P->i++;
      if (at_punct (P, "{"))
        skip_block (P);
      return type_new (P, TYPE_OTHER);
    }
  return NULL;
}

/* A type specifier where nothing follows but ':=' or ';' (all its words name it). */
static Type *
parse_type (Parser *P)
{
  Type *t = parse_keyword_type (P);
  if (t != NULL)
    return t;
  guint first = P->i, n = 0;
  while (is (peek (P, 0), TOK_IDENT, NULL))
    {
      P->i++;
      n++;
    }
  return n > 0 ? lookup_words (P, first, n) : type_new (P, TYPE_OTHER);
}

/* `[N]` suffixes of a declarator. */
static Type *
parse_array_suffixes (Parser *P, Type *t)
{
  while (accept_punct (P, "["))
    {
      Type *a = type_new (P, TYPE_ARRAY);
      if (is (peek (P, 0), TOK_NUMBER, NULL) && is (peek (P, 1), TOK_PUNCT, "]"))
        {
          a->elem = t;
          a->length = peek (P, 0)->value;
        }
      else
        a->kind = TYPE_OTHER;   /* a sequence: its length is a field's value */
      while (P->i < P->tokens->len && !accept_punct (P, "]"))
        P->i++;
      t = a;
    }
  return t;
}

static void parse_alias (Parser *P, gboolean typedef_);

static void
parse_members (Parser *P, Type *structure)
{
  while (P->i < P->tokens->len && !accept_punct (P, "}"))
    {
      const Token *t = peek (P, 0);
      if (is (t, TOK_IDENT, "typealias") || is (t, TOK_IDENT, "typedef"))
        {
          P->i++;
          parse_alias (P, strcmp (t->text, "typedef") == 0);
          continue;
        }
      Type *type = parse_keyword_type (P);
      const char *name = NULL;
      if (type == NULL)
        {
          guint first = P->i, n = 0;
          while (is (peek (P, 0), TOK_IDENT, NULL))
            {
              P->i++;
              n++;
            }
          if (n < 2)
            {
              /* Not understood: the members after it have no known place. */
              Field f = { g_strdup (""), type_new (P, TYPE_OTHER) };
              g_array_append_val (structure->fields, f);
              skip_statement (P);
              continue;
            }
          type = lookup_words (P, first, n - 1);
          name = g_array_index (P->tokens, Token, first + n - 1).text;
        }
      else if (is (peek (P, 0), TOK_IDENT, NULL))
        {
          name = peek (P, 0)->text;
          P->i++;
        }
      if (name == NULL)
        {
          Field f = { g_strdup (""), type_new (P, TYPE_OTHER) };
          g_array_append_val (structure->fields, f);
          skip_statement (P);
          continue;
        }
      type = parse_array_suffixes (P, type);
      Field f = { g_strdup (name), type };
      g_array_append_val (structure->fields, f);
      skip_statement (P);
    }
}

/* typealias TYPE := NAME WORDS; / typedef TYPE NAME; */
static void
parse_alias (Parser *P, gboolean typedef_)
{
  Type *type = parse_keyword_type (P);
  guint first = P->i, n = 0;
  if (type == NULL)
    {
      while (is (peek (P, 0), TOK_IDENT, NULL))
        {
          P->i++;
          n++;
        }
      if (typedef_ && n >= 2)
        {
          /* All words but the last name the type. */
          type = lookup_words (P, first, n - 1);
          first += n - 1;
          n = 1;
        }
      else if (!typedef_ && n > 0)
        type = lookup_words (P, first, n);
      else
        {
          skip_statement (P);
          return;
        }
    }
  if (!typedef_)
    {
      if (!accept_punct (P, ":="))
        {
          skip_statement (P);
          return;
        }
      first = P->i;
      n = 0;
      while (is (peek (P, 0), TOK_IDENT, NULL))
        {
          P->i++;
          n++;
        }
    }
  else if (n == 0)
    {
      first = P->i;
      while (is (peek (P, 0), TOK_IDENT, NULL))
        {
          P->i++;
          n++;
        }
    }
  if (n > 0)
    {
      GString *name = g_string_new (NULL);
      for (guint k = 0; k < n; k++)
        {
          if (k > 0)
            g_string_append_c (name, ' ');
          g_string_append (name, g_array_index (P->tokens, Token, first + k).text);
        }
      g_hash_table_replace (P->names, g_string_free (name, FALSE), type);
    }
  skip_statement (P);
}

static gboolean
parse_uuid (const char *s, guint8 out[16])
{
  guint n = 0;
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '-')
        continue;
      if (!g_ascii_isxdigit (p[0]) || !g_ascii_isxdigit (p[1]) || n == 16)
        return FALSE;
      out[n++] = (guint8) (g_ascii_xdigit_value (p[0]) << 4 | g_ascii_xdigit_value (p[1]));
      p++;
    }
  return n == 16;
}

/* The body of trace { } or stream { }: `key = value;` and `a.b := TYPE;`. */
static void
parse_scope (Parser *P, gboolean trace, StreamDecl *stream)
{
  if (!accept_punct (P, "{"))
    {
      skip_statement (P);
      return;
    }
  while (P->i < P->tokens->len && !accept_punct (P, "}"))
    {
      GString *key = g_string_new (NULL);
      while (is (peek (P, 0), TOK_IDENT, NULL) || at_punct (P, "."))
        {
          g_string_append (key, peek (P, 0)->text);
          P->i++;
        }
      if (accept_punct (P, ":="))
        {
          Type *t = parse_type (P);
          if (trace && strcmp (key->str, "packet.header") == 0)
            P->header = t;
          else if (!trace && strcmp (key->str, "packet.context") == 0)
            stream->context = t;
        }
      else if (accept_punct (P, "="))
        {
          const Token *v = peek (P, 0);
          if (trace && strcmp (key->str, "byte_order") == 0 && is (v, TOK_IDENT, NULL))
            P->trace_order = parse_order (v->text);
          else if (trace && strcmp (key->str, "uuid") == 0 && is (v, TOK_STRING, NULL))
            P->has_uuid = parse_uuid (v->text, P->uuid);
          else if (!trace && strcmp (key->str, "id") == 0 && is (v, TOK_NUMBER, NULL))
            stream->id = v->value;
        }
      g_string_free (key, TRUE);
      skip_statement (P);
    }
  accept_punct (P, ";");
}

static void
parse_top (Parser *P)
{
  while (P->i < P->tokens->len)
    {
      const Token *t = peek (P, 0);
      if (is (t, TOK_IDENT, "typealias") || is (t, TOK_IDENT, "typedef"))
        {
          P->i++;
          parse_alias (P, strcmp (t->text, "typedef") == 0);
        }
      else if (is (t, TOK_IDENT, "trace"))
        {
          P->i++;
          parse_scope (P, TRUE, NULL);
        }
      else if (is (t, TOK_IDENT, "stream"))
        {
          P->i++;
          StreamDecl s = { 0, NULL };
          parse_scope (P, FALSE, &s);
          g_array_append_val (P->streams, s);
        }
      else if (is (t, TOK_IDENT, "struct") || is (t, TOK_IDENT, "enum")
               || is (t, TOK_IDENT, "variant"))
        {
          parse_keyword_type (P);
          skip_statement (P);
        }
      else if (is (t, TOK_PUNCT, "}"))
        P->i++;   /* stray: damaged text */
      else
        skip_statement (P);
    }
}

/* ---- Layout ---- */

static gboolean type_measure (const Type *t, guint depth, guint64 *size, guint64 *align);

static guint64
align_up (guint64 v, guint64 a)
{
  return a <= 1 ? v : (v + a - 1) / a * a;
}

static gboolean
type_measure (const Type *t, guint depth, guint64 *size, guint64 *align)
{
  if (depth > 32)
    return FALSE;
  switch (t->kind)
    {
    case TYPE_INT:
      *size = t->size;
      *align = t->align;
      return TRUE;
    case TYPE_ARRAY:
      {
        guint64 es, ea;
        if (!type_measure (t->elem, depth + 1, &es, &ea) || t->length > (1u << 20))
          return FALSE;
        *size = t->length == 0 ? 0 : (t->length - 1) * align_up (es, ea) + es;
        *align = ea;
        return *size <= MAX_BITS;
      }
    case TYPE_STRUCT:
      {
        guint64 pos = 0, a = MAX (t->align, 1);
        for (guint i = 0; i < t->fields->len; i++)
          {
            guint64 fs, fa;
            if (!type_measure (g_array_index (t->fields, Field, i).type, depth + 1, &fs, &fa))
              return FALSE;
            pos = align_up (pos, fa) + fs;
            a = MAX (a, fa);
            if (pos > MAX_BITS)
              return FALSE;
          }
        *size = pos;
        *align = a;
        return TRUE;
      }
    case TYPE_OTHER:
    default:
      return FALSE;
    }
}

/* The struct's alignment as far as its members can be measured. */
static guint64
struct_align (const Type *t)
{
  guint64 a = MAX (t->align, 1);
  for (guint i = 0; i < t->fields->len; i++)
    {
      guint64 fs, fa;
      if (!type_measure (g_array_index (t->fields, Field, i).type, 1, &fs, &fa))
        break;
      a = MAX (a, fa);
    }
  return a;
}

typedef struct
{
  guint64  bit;
  guint    bits;
  gboolean be;
  const Type *type;
} Found;

/* Walks @t's top-level members from bit @start: where @names[k] lands goes to @found[k]
 * (bit UNKNOWN when not reached); returns the end, or UNKNOWN when something cannot be
 * measured. */
static guint64
walk (const Type *t, guint64 start, Order trace_order, const char * const *names, Found *found)
{
  for (guint k = 0; names[k] != NULL; k++)
    found[k].bit = JVMS_CTF_LAYOUT_UNKNOWN;
  if (t == NULL || t->kind != TYPE_STRUCT)
    return JVMS_CTF_LAYOUT_UNKNOWN;
  guint64 pos = align_up (start, struct_align (t));
  for (guint i = 0; i < t->fields->len; i++)
    {
      const Field *f = &g_array_index (t->fields, Field, i);
      guint64 fs, fa;
      if (!type_measure (f->type, 1, &fs, &fa))
        return JVMS_CTF_LAYOUT_UNKNOWN;
      pos = align_up (pos, fa);
      if (pos > MAX_BITS)
        return JVMS_CTF_LAYOUT_UNKNOWN;
      for (guint k = 0; names[k] != NULL; k++)
        if (strcmp (f->name, names[k]) == 0)
          {
            found[k].bit = pos;
            found[k].bits = (guint) fs;
            found[k].type = f->type;
            Order o = f->type->kind == TYPE_INT ? f->type->order : ORDER_NATIVE;
            if (o == ORDER_NATIVE)
              o = trace_order;
            found[k].be = o == ORDER_BE;
          }
      pos += fs;
    }
  return pos;
}

static gboolean
readable_int (const Found *f)
{
  return f->bit != JVMS_CTF_LAYOUT_UNKNOWN && f->bit % 8 == 0 && f->type->kind == TYPE_INT
         && (f->bits == 8 || f->bits == 16 || f->bits == 32 || f->bits == 64);
}

JvmsCtfLayout *
jvms_ctf_layout_parse (const char *tsdl)
{
  Parser P = { 0 };
  P.tokens = tokenize (tsdl);
  if (P.tokens == NULL)
    return NULL;
  P.pool = g_ptr_array_new_with_free_func (type_free);
  P.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  P.streams = g_array_new (FALSE, TRUE, sizeof (StreamDecl));
  P.trace_order = ORDER_LE;
  parse_top (&P);

  JvmsCtfLayout *layout = g_new0 (JvmsCtfLayout, 1);
  layout->streams = g_array_new (FALSE, TRUE, sizeof (JvmsCtfStreamLayout));
  gboolean ok = P.streams->len > 0;

  /* The header. */
  static const char * const header_names[] = { "magic", "uuid", "stream_id", NULL };
  Found h[3];
  guint64 header_end = 0;
  if (P.header != NULL)
    header_end = walk (P.header, 0, P.trace_order, header_names, h);
  else
    for (guint k = 0; k < 3; k++)
      h[k].bit = JVMS_CTF_LAYOUT_UNKNOWN;
  if (header_end == JVMS_CTF_LAYOUT_UNKNOWN)
    ok = FALSE;
  layout->magic_bit = JVMS_CTF_LAYOUT_UNKNOWN;
  if (readable_int (&h[0]) && h[0].bits == 32)
    {
      layout->magic_bit = h[0].bit;
      layout->magic_be = h[0].be;
    }
  layout->uuid_bit = JVMS_CTF_LAYOUT_UNKNOWN;
  if (h[1].bit != JVMS_CTF_LAYOUT_UNKNOWN && h[1].bit % 8 == 0 && h[1].type->kind == TYPE_ARRAY
      && h[1].type->length == 16 && h[1].type->elem->kind == TYPE_INT
      && h[1].type->elem->size == 8)
    layout->uuid_bit = h[1].bit;
  layout->has_uuid = P.has_uuid;
  memcpy (layout->uuid, P.uuid, 16);
  layout->stream_id_bit = JVMS_CTF_LAYOUT_UNKNOWN;
  if (readable_int (&h[2]))
    {
      layout->stream_id_bit = h[2].bit;
      layout->stream_id_bits = h[2].bits;
      layout->stream_id_be = h[2].be;
    }
  else if (h[2].bit != JVMS_CTF_LAYOUT_UNKNOWN || P.streams->len > 1)
    ok = FALSE;   /* a stream id there but not readable, or several streams to tell apart */

  /* Each stream's context, after the header. */
  static const char * const context_names[] = { "content_size", "packet_size", NULL };
  for (guint s = 0; ok && s < P.streams->len; s++)
    {
      const StreamDecl *d = &g_array_index (P.streams, StreamDecl, s);
      Found c[2];
      guint64 end = walk (d->context, header_end, P.trace_order, context_names, c);
      if (!readable_int (&c[1]))
        {
          ok = FALSE;
          break;
        }
      JvmsCtfStreamLayout sl = { 0 };
      sl.id = d->id;
      sl.packet_size_bit = c[1].bit;
      sl.packet_size_bits = c[1].bits;
      sl.packet_size_be = c[1].be;
      sl.content_size_bit = JVMS_CTF_LAYOUT_UNKNOWN;
      if (readable_int (&c[0]))
        {
          sl.content_size_bit = c[0].bit;
          sl.content_size_bits = c[0].bits;
          sl.content_size_be = c[0].be;
        }
      sl.context_end_bit = end != JVMS_CTF_LAYOUT_UNKNOWN
        ? end : MAX (sl.packet_size_bit + sl.packet_size_bits,
                     sl.content_size_bit != JVMS_CTF_LAYOUT_UNKNOWN
                     ? sl.content_size_bit + sl.content_size_bits : 0);
      /* Bounded so that the repair reads a packet's head in one small read. */
      if (sl.context_end_bit > 8 * 4096)
        ok = FALSE;
      g_array_append_val (layout->streams, sl);
    }

  g_array_unref (P.streams);
  g_hash_table_unref (P.names);
  g_ptr_array_unref (P.pool);
  g_array_unref (P.tokens);
  if (!ok)
    {
      jvms_ctf_layout_free (layout);
      return NULL;
    }
  return layout;
}

void
jvms_ctf_layout_free (JvmsCtfLayout *layout)
{
  if (layout == NULL)
    return;
  g_array_unref (layout->streams);
  g_free (layout);
}

const JvmsCtfStreamLayout *
jvms_ctf_layout_stream (const JvmsCtfLayout *layout, guint64 id)
{
  for (guint i = 0; i < layout->streams->len; i++)
    {
      const JvmsCtfStreamLayout *s = &g_array_index (layout->streams, JvmsCtfStreamLayout, i);
      if (s->id == id)
        return s;
    }
  return NULL;
}

gsize
jvms_ctf_layout_head_bytes (const JvmsCtfLayout *layout)
{
  guint64 bits = 0;
  for (guint i = 0; i < layout->streams->len; i++)
    bits = MAX (bits, g_array_index (layout->streams, JvmsCtfStreamLayout, i).context_end_bit);
  if (layout->magic_bit != JVMS_CTF_LAYOUT_UNKNOWN)
    bits = MAX (bits, layout->magic_bit + 32);
  if (layout->uuid_bit != JVMS_CTF_LAYOUT_UNKNOWN)
    bits = MAX (bits, layout->uuid_bit + 128);
  if (layout->stream_id_bit != JVMS_CTF_LAYOUT_UNKNOWN)
    bits = MAX (bits, layout->stream_id_bit + layout->stream_id_bits);
  return (gsize) ((bits + 7) / 8);
}

guint64
jvms_ctf_layout_read (const guint8 *data, guint64 bit, guint bits, gboolean be)
{
  const guint8 *p = data + bit / 8;
  guint n = bits / 8;
  guint64 v = 0;
  for (guint k = 0; k < n; k++)
    v |= (guint64) (be ? p[k] : p[n - 1 - k]) << (8 * (n - 1 - k));
  return v;
}
