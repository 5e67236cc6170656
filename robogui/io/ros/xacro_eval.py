"""xacro's ``${...}`` and ``$(eval ...)`` expressions, evaluated without running code.

xacro itself hands expressions to Python's ``eval`` with a few names hidden; a file from
the internet can escape that (issue 23). Here an expression is parsed with :mod:`ast` and
walked node by node over an allowlist: literals, names of properties and args, arithmetic,
comparisons, boolean and conditional expressions, indexing and ``.key`` access into
properties, namespaces and loaded YAML data (never a name starting with ``_``), a few
string and dict methods, and calls to an allowlist of math and conversion functions.
Anything else (attributes of other objects, comprehensions, lambdas, f-strings, unknown
calls) raises :class:`ExpressionRefused`. Sizes are bounded while evaluating: strings and
lists stay under :data:`MAX_ITEMS`, integers under :data:`MAX_INT_BITS` bits, so neither an
exponent bomb nor string doubling can exhaust memory.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping

__all__ = ["ExpressionRefused", "evaluate", "SafeFunction", "MAX_ITEMS", "MAX_INT_BITS"]

MAX_ITEMS = 1_000_000  # characters of a string, items of a list
MAX_INT_BITS = 4096
MAX_EXPRESSION = 10_000  # characters of one expression


class ExpressionRefused(ValueError):
    """An expression outside the allowlist, or one whose value would be too large."""


class SafeFunction:
    """A callable the evaluator may call (only these are callable from a file)."""

    __slots__ = ("name", "fn")

    def __init__(self, name: str, fn: Callable):
        self.name, self.fn = name, fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<function {self.name}>"


class SafeNamespace(dict):
    """``math``, ``python`` or ``xacro``: a namespace whose members are SafeFunctions."""


def _check_size(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if value.bit_length() > MAX_INT_BITS:
            raise ExpressionRefused(f"an integer of more than {MAX_INT_BITS} bits")
    elif isinstance(value, (str, list, tuple, dict, set, frozenset, bytes)):
        if len(value) > MAX_ITEMS:
            raise ExpressionRefused(f"a value of more than {MAX_ITEMS:,} items or characters")
    return value


def _length(x) -> int:
    return len(x) if isinstance(x, (str, list, tuple)) else 0


def _pow(a, b, *mod):
    if mod:
        return pow(a, b, *mod)
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and abs(a) > 1:
        if b > 0 and b * math.log2(abs(a)) > MAX_INT_BITS:
            raise ExpressionRefused(f"{a} ** {b} is too large")
    return a ** b


def _mul(a, b):
    for s, k in ((a, b), (b, a)):
        if isinstance(s, (str, list, tuple)) and isinstance(k, int):
            if len(s) * max(k, 0) > MAX_ITEMS:
                raise ExpressionRefused(f"repeating a value {k} times is too large")
    return a * b


def _add(a, b):
    if _length(a) + _length(b) > MAX_ITEMS:
        raise ExpressionRefused(f"a value of more than {MAX_ITEMS:,} items or characters")
    return a + b


def _lshift(a, b):
    if isinstance(b, int) and b > MAX_INT_BITS:
        raise ExpressionRefused(f"{a} << {b} is too large")
    return a << b


_BINOPS = {ast.Add: _add, ast.Sub: operator.sub, ast.Mult: _mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: _pow,
           ast.LShift: _lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_,
          ast.Invert: operator.invert}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
            ast.Is: operator.is_, ast.IsNot: operator.is_not}


def _range(*args):
    r = range(*args)
    if len(r) > MAX_ITEMS:
        raise ExpressionRefused(f"range of {len(r):,} numbers is too long")
    return r


def _join(sep: str, items) -> str:
    items = list(items)
    if sum(map(_length, items)) + len(sep) * len(items) > MAX_ITEMS:
        raise ExpressionRefused("joining makes a string too long")
    return sep.join(items)


def _replace(s: str, old: str, new: str, count: int = -1) -> str:
    n = s.count(old) if old else len(s) + 1
    if len(s) + n * max(len(new) - len(old), 0) > MAX_ITEMS:
        raise ExpressionRefused("replacing makes a string too long")
    return s.replace(old, new, count)


# methods of data values a file may call: (type, name) -> implementation taking self first
_METHODS: dict[tuple[type, str], Callable] = {
    **{(str, m): getattr(str, m) for m in (
        "lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "startswith",
        "endswith", "capitalize", "title", "isdigit", "isalpha", "count", "find", "rfind",
        "zfill")},
    (str, "join"): _join, (str, "replace"): _replace,
    **{(dict, m): getattr(dict, m) for m in ("keys", "values", "items", "get")},
    **{(list, m): getattr(list, m) for m in ("index", "count")},
    **{(tuple, m): getattr(tuple, m) for m in ("index", "count")},
}

_UNSAFE_MATH = {"factorial", "comb", "perm", "prod", "lcm", "gcd"}  # unbounded integer work
MATH = SafeNamespace({k: (SafeFunction(k, v) if callable(v) else v)
                      for k, v in vars(math).items()
                      if not k.startswith("_") and k not in _UNSAFE_MATH})
MATH["pow"] = SafeFunction("pow", lambda a, b: math.pow(a, b))

PYTHON = SafeNamespace({k: SafeFunction(k, v) for k, v in {
    "abs": abs, "min": min, "max": max, "round": round, "float": float, "int": int,
    "str": str, "bool": bool, "len": len, "list": list, "tuple": tuple, "dict": dict,
    "sorted": sorted, "sum": sum, "range": _range, "zip": zip, "enumerate": enumerate,
    "reversed": reversed, "map": map, "any": any, "all": all, "divmod": divmod,
    "pow": _pow, "set": set, "frozenset": frozenset}.items()})


def _bind_method(value, name: str):
    for (kind, mname), impl in _METHODS.items():
        if mname == name and isinstance(value, kind):
            return SafeFunction(f"{kind.__name__}.{name}", lambda *a, _v=value, _f=impl, **k:
                                _f(_v, *a, **k))
    return None


class _Walker:
    def __init__(self, lookup: Callable[[str], object]):
        self.lookup = lookup

    def run(self, node):
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise ExpressionRefused(f"{_describe(node)} is not allowed")
        return _check_size(method(node))

    def _Expression(self, node):
        return self.run(node.body)

    def _Constant(self, node):
        if not isinstance(node.value, (int, float, str, bool, type(None))):
            raise ExpressionRefused(f"the constant {node.value!r} is not allowed")
        return node.value

    def _Name(self, node):
        if node.id.startswith("_"):
            raise ExpressionRefused(f"the name {node.id!r} starts with '_'")
        return self.lookup(node.id)

    def _Attribute(self, node):
        name = node.attr
        if name.startswith("_"):
            raise ExpressionRefused(f"the attribute {name!r} starts with '_'")
        value = self.run(node.value)
        if isinstance(value, Mapping):  # a namespace, a property namespace, YAML data
            try:
                return _data(value[name], name)
            except KeyError:
                raise ExpressionRefused(f"no key {name!r}") from None
        method = _bind_method(value, name)
        if method is None:
            raise ExpressionRefused(f"the attribute {name!r} of a {type(value).__name__} "
                                    "is not allowed")
        return method

    def _Subscript(self, node):
        value = self.run(node.value)
        key = self.run(node.slice)
        if isinstance(key, str) and key.startswith("_"):
            raise ExpressionRefused(f"the key {key!r} starts with '_'")
        if not isinstance(value, (str, list, tuple, Mapping, range)):
            raise ExpressionRefused(f"indexing a {type(value).__name__} is not allowed")
        return _data(value[key], key)

    def _Slice(self, node):
        parts = [None if p is None else self.run(p) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def _BinOp(self, node):
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise ExpressionRefused(f"the operator {type(node.op).__name__} is not allowed")
        return op(self.run(node.left), self.run(node.right))

    def _UnaryOp(self, node):
        return _UNARY[type(node.op)](self.run(node.operand))

    def _BoolOp(self, node):
        value = None
        for v in node.values:
            value = self.run(v)
            if isinstance(node.op, ast.And) and not value:
                return value
            if isinstance(node.op, ast.Or) and value:
                return value
        return value

    def _Compare(self, node):
        left = self.run(node.left)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.run(right_node)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _IfExp(self, node):
        return self.run(node.body) if self.run(node.test) else self.run(node.orelse)

    def _List(self, node):
        return [self.run(e) for e in node.elts]

    def _Tuple(self, node):
        return tuple(self.run(e) for e in node.elts)

    def _Dict(self, node):
        if any(k is None for k in node.keys):
            raise ExpressionRefused("'**' in a dict is not allowed")
        return {self.run(k): self.run(v) for k, v in zip(node.keys, node.values, strict=True)}

    def _Call(self, node):
        fn = self.run(node.func)
        if not isinstance(fn, SafeFunction):
            raise ExpressionRefused(f"calling {_describe(node.func)} is not allowed (only "
                                    "math and conversion functions may be called)")
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise ExpressionRefused("'*' arguments are not allowed")
            args.append(self.run(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise ExpressionRefused("'**' arguments are not allowed")
            kwargs[k.arg] = self.run(k.value)
        result = fn(*args, **kwargs)
        if isinstance(result, (map, zip, enumerate, reversed, range)):
            result = list(result) if not isinstance(result, range) else result
        return result


def _data(value, name):
    """What a file may hold: data, a namespace, or one of the safe functions."""
    if isinstance(value, (int, float, str, bool, type(None), list, tuple, Mapping, range,
                          SafeFunction)):
        return value
    raise ExpressionRefused(f"{name!r} is a {type(value).__name__}, not data")


def _describe(node) -> str:
    kinds = {"Lambda": "a lambda", "ListComp": "a comprehension", "SetComp":
             "a comprehension", "DictComp": "a comprehension", "GeneratorExp":
             "a generator", "JoinedStr": "an f-string", "NamedExpr": "':='", "Await":
             "await", "Yield": "yield", "Starred": "'*'"}
    try:
        text = ast.unparse(node)
    except Exception:  # unparse of a partial tree
        text = type(node).__name__
    return kinds.get(type(node).__name__, repr(text[:60]))


def evaluate(expr: str, lookup: Callable[[str], object]):
    """The value of the Python-syntax expression ``expr`` (a ``${...}`` body), names
    resolved by ``lookup(name)`` (raising NameError when unknown). Raises
    ExpressionRefused for anything outside the allowlist; SyntaxError, NameError,
    TypeError, ValueError, ZeroDivisionError, OverflowError... as Python would."""
    expr = expr.strip()
    if len(expr) > MAX_EXPRESSION:
        raise ExpressionRefused(f"an expression of more than {MAX_EXPRESSION:,} characters")
    tree = ast.parse(expr, mode="eval")
    return _Walker(lookup).run(tree)
