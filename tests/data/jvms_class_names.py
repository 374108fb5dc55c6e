"""The Java form of a class name, as Jvmscope's JFR reader gives it, from the internal form that
`jfr print` shows: "[J" -> "long[]", "[Ljava/lang/String;" -> "java.lang.String[]",
"a/B$C" -> "a.B$C". The tests' oracles compare the reader's names with jfr print's through it."""

_PRIMITIVES = {"Z": "boolean", "B": "byte", "C": "char", "S": "short", "I": "int", "J": "long",
               "F": "float", "D": "double", "V": "void"}


def java_class_name(internal):
    if internal is None:
        return None
    dims = len(internal) - len(internal.lstrip("["))
    base = internal[dims:]
    if dims > 0:
        if len(base) == 1 and base in _PRIMITIVES:
            base = _PRIMITIVES[base]
        elif base.startswith("L"):
            base = base[1:-1] if base.endswith(";") and len(base) > 1 else base[1:]
    return base.replace("/", ".") + "[]" * dims
