"""Expanding a xacro file without running its code, reading outside its folders, hanging
or exhausting memory.

The ``xacro`` package does the macro work; five of its entry points are replaced, only
while one file expands (under a lock, as xacro keeps module-level state):

- ``safe_eval`` (every ``${...}``) and ``$(eval ...)`` go to :mod:`.xacro_eval`'s
  allowlist evaluator; ``xacro.load_yaml`` reads through the guarded opener;
- ``parse`` (the file and every ``xacro:include``) reads through the guarded opener,
  confined to the robot's folder tree and the package folders;
- ``eval_all`` (every element) checks the wall-time limit, the memory budget and the
  nesting depth of includes and macros;
- ``$(find)`` uses robogui's package resolver; ``$(env)`` is refused and ``$(optenv)``
  gives its default (the environment is not the file's to read).

Arguments (``$(arg NAME)``) come from the caller (``--xacro-arg NAME:=VALUE``).
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from robogui.engine.guarded_open import RefusedFile, read_guarded
from robogui.engine.limits import ENV, limits

from ..file_error import RobotFileError
from .xacro_eval import (
    MATH,
    PYTHON,
    ExpressionRefused,
    SafeFunction,
    SafeNamespace,
    evaluate,
)

__all__ = ["expand_xacro", "xacro_arg_declarations", "parse_xacro_args", "XACRO_NS"]

XACRO_NS = "http://www.ros.org/wiki/xacro"
MAX_INCLUDE_DEPTH = 50
MAX_MACRO_DEPTH = 100
MAX_ELEMENT_DEPTH = 200
_LOCK = threading.Lock()


class _Stop(Exception):
    """Ends the expansion with this message (not a XacroException, so xacro does not
    re-word it; it is found again in the chain of causes)."""


def parse_xacro_args(items) -> dict[str, str]:
    """``["NAME:=VALUE", ...]`` (the command line's ``--xacro-arg``) as a dict."""
    out = {}
    for item in items or ():
        name, sep, value = str(item).partition(":=")
        if not sep or not name.strip():
            raise ValueError(f"--xacro-arg {item!r}: write NAME:=VALUE")
        out[name.strip()] = value
    return out


def _rss() -> int:
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _rss_peak() -> int:
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except (ImportError, OSError):
        return 0


def _short(text: str, n: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 3] + "..."


class _Run:
    """One expansion: its file, folders, args, limits and counters."""

    def __init__(self, path: Path, resolver, roots, args: Mapping[str, str]):
        import xacro

        self.xacro = xacro
        self.path = path
        self.resolver = resolver
        self.roots = list(roots)
        self.args = dict(args)
        self.limits = limits()
        self.deadline = time.monotonic() + self.limits.seconds
        self.rss0 = _rss()
        self.calls = 0
        self.depth = 0
        self.texts: dict[str, str] = {}
        self.missing_package: str | None = None
        self.missing_arg: str | None = None
        g = xacro._global_symbols
        self.globals = g
        xns = SafeNamespace({
            "load_yaml": SafeFunction("load_yaml", self.load_yaml),
            "arg": SafeFunction("arg", self.arg),
            "dotify": SafeFunction("dotify", lambda d: xacro.YamlDictWrapper(d)),
            "tokenize": SafeFunction("tokenize", xacro.tokenize),
            "fatal": SafeFunction("fatal", self.fatal),
            **{k: SafeFunction(k, lambda *a, **kw: "") for k in
               ("message", "warning", "error", "print_location")},
            "abs_filename": SafeFunction("abs_filename", xacro.abs_filename_spec)})
        self.safe_globals = {**MATH, **{k: PYTHON[k] for k in (
            "list", "dict", "map", "len", "str", "float", "int", "bool", "min", "max",
            "round", "sorted", "range")}, "math": MATH, "python": PYTHON, "xacro": xns,
            "load_yaml": xns["load_yaml"], "abs_filename": xns["abs_filename"],
            "dotify": xns["dotify"], "True": True, "False": False}

    # -- where an expression is -----------------------------------------------------------
    def where(self, expr: str) -> str:
        stack = self.xacro.filestack or [str(self.path)]
        f = stack[-1] or str(self.path)
        text = self.texts.get(str(f), "")
        needle = expr.strip()
        for k, line in enumerate(text.splitlines(), 1):
            if needle and needle in line:
                return f"{f}, line {k}"
        return str(f)

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise _Stop(f"expanding the xacro took more than {self.limits.seconds:g} s (the "
                        f"limit; raise it with {ENV['seconds']}=SECONDS)")
        self.calls += 1
        if self.calls % 256 == 0:
            grown = _rss() - self.rss0
            if grown > self.limits.memory:
                raise _Stop(f"expanding the xacro needed more than "
                            f"{self.limits.memory / 2**20:.0f} MiB of memory (the limit; "
                            f"raise it with {ENV['memory']}=MIB)")

    # -- the replaced entry points --------------------------------------------------------
    def lookup(self, symbols):
        def look(name: str):
            if name in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[name]
            try:
                value = symbols[name]
            except KeyError:
                raise NameError(f"name {name!r} is not defined") from None
            if name in self.globals and value is self.globals[name]:
                safe = self.safe_globals.get(name)
                if safe is None:
                    raise ExpressionRefused(f"{name!r} is not allowed in a robot file")
                return safe
            if callable(value) and not isinstance(value, (Mapping, SafeFunction)):
                raise ExpressionRefused(f"{name!r} is not data")
            return value
        return look

    def safe_eval(self, expr, globals, locals=None):  # noqa: A002 - xacro's signature
        self.check()
        try:
            return evaluate(expr, self.lookup(globals))
        except ExpressionRefused as exc:
            raise _Stop(f"{self.where(expr)}: the expression ${{{_short(expr)}}} is refused: "
                        f"{exc}") from None
        except RecursionError:
            raise _Stop(f"{self.where(expr)}: the expression ${{{_short(expr)}}} nests too "
                        "deeply") from None

    def subst_eval(self, s, context):
        import xacro.substitution_args as subst

        self.check()
        args = context.get("arg", {})
        funcs = {"arg": SafeFunction("arg", lambda n: subst.convert_value(self.arg(n), "auto")),
                 "dirname": SafeFunction("dirname", lambda: subst._eval_dirname(
                     context.get("filename"))),
                 "optenv": SafeFunction("optenv", lambda n, d="": d),
                 "find": SafeFunction("find", self.find),
                 "true": True, "false": False, **MATH,
                 **{k: PYTHON[k] for k in ("list", "dict", "map", "str", "float", "int")}}

        def look(name):
            if name in funcs:
                return funcs[name]
            if name in args:
                return subst.convert_value(args[name], "auto")
            raise NameError(f"name {name!r} is not defined")
        try:
            return str(evaluate(s, look))
        except ExpressionRefused as exc:
            raise _Stop(f"{self.where(s)}: the expression $(eval {_short(s)}) is refused: "
                        f"{exc}") from None

    def arg(self, name: str):
        import xacro

        try:
            return xacro.substitution_args_context["arg"][name]
        except KeyError:
            self.missing_arg = name
            raise

    def fatal(self, *words):
        raise _Stop(f"the file stops itself: {_short(' '.join(map(str, words)), 300)}")

    def find(self, pkg: str) -> str:
        found = self.resolver.find(pkg)
        if found is None:
            self.missing_package = pkg
            raise LookupError(pkg)
        self.roots = self.resolver.allowed_roots()  # a package found counts from now on
        return str(found)

    def env(self, name: str, *default):
        raise _Stop(f"$(env {_short(name, 40)}): a robot file may not read the environment")

    def read(self, filename: str) -> bytes:
        if "://" in str(filename):  # after xacro put the file's folder in front
            url = re.search(r"[A-Za-z][A-Za-z0-9+.-]*://.*", str(filename))
            raise _Stop(f"{_short(url.group(0) if url else filename, 120)}: a URL; robogui "
                        "reads local files only, never a network address or file:// URL")
        try:
            return read_guarded(filename, self.limits.xml_bytes, self.roots)
        except RefusedFile as exc:
            raise _Stop(f"{exc.filename}: {exc.strerror}") from None
        except OSError as exc:
            raise _Stop(f"{filename}: cannot read ({exc.strerror or exc})") from None

    def parse(self, inp, filename=None):
        import xml.dom.minidom

        if inp is not None:
            return self._orig_parse(inp, filename)
        self.check()
        if len(self.xacro.filestack or ()) > MAX_INCLUDE_DEPTH:
            raise _Stop(f"{filename}: includes nest more than {MAX_INCLUDE_DEPTH} deep (a "
                        "file including itself?)")
        raw = self.read(filename)
        _refuse_entities(raw, filename)
        self.texts[str(filename)] = raw.decode("utf-8", "replace")
        return xml.dom.minidom.parseString(raw)

    def load_yaml(self, filename):
        import yaml

        xacro = self.xacro
        filename = xacro.abs_filename_spec(str(filename))
        raw = self.read(filename)
        try:
            data = yaml.safe_load(raw.decode("utf-8", "replace"))
        except yaml.YAMLError as exc:
            raise _Stop(f"{filename}: not valid YAML ({_short(exc, 200)})") from None
        return xacro.YamlListWrapper.wrap(data)

    def eval_all(self, node, macros, symbols):
        self.check()
        if len(self.xacro.macrostack or ()) > MAX_MACRO_DEPTH:
            raise _Stop(f"macros nest more than {MAX_MACRO_DEPTH} deep (a macro calling "
                        "itself?)")
        self.depth += 1
        try:
            if self.depth > MAX_ELEMENT_DEPTH:
                raise _Stop(f"elements nest more than {MAX_ELEMENT_DEPTH} deep")
            return self._orig_eval_all(node, macros, symbols)
        finally:
            self.depth -= 1

    # -- running ----------------------------------------------------------------------------
    def expand(self) -> str:
        import xacro
        import xacro.substitution_args as subst

        patches = [(xacro, "safe_eval", self.safe_eval), (xacro, "parse", self.parse),
                   (xacro, "eval_all", self.eval_all), (xacro, "load_yaml", self.load_yaml),
                   (subst, "_eval", self.subst_eval), (subst, "_eval_find", self.find),
                   (subst, "_eval_env", self.env),
                   (subst, "_eval_optenv", lambda name, default="": default)]
        self._orig_parse, self._orig_eval_all = xacro.parse, xacro.eval_all
        saved = [(mod, name, getattr(mod, name)) for mod, name, _ in patches]
        with _LOCK:
            for mod, name, fn in patches:
                setattr(mod, name, fn)
            try:
                doc = xacro.process_file(str(self.path), mappings=dict(self.args))
                text = doc.toxml()
            except MemoryError:
                raise RobotFileError("expanding the xacro ran out of memory", self.path) \
                    from None
            except RecursionError:
                raise RobotFileError("the xacro nests too deeply (includes or macros "
                                     "calling themselves?)", self.path) from None
            except Exception as exc:  # xacro raises many kinds; all mean "cannot expand"
                raise self._error(exc) from None
            finally:
                for mod, name, fn in saved:
                    setattr(mod, name, fn)
                xacro.substitution_args_context["arg"] = {}
        if len(text) > self.limits.xml_bytes:
            raise RobotFileError(f"the expanded xacro is {len(text) / 2**20:.0f} MiB, more than "
                                 f"the limit of {self.limits.xml_bytes / 2**20:.0f} MiB (raise "
                                 f"it with {ENV['xml_bytes']}=MIB)", self.path)
        return text

    def _error(self, exc: Exception) -> RobotFileError:
        import xacro.substitution_args as subst

        chain, e = [], exc
        while e is not None and len(chain) < 500:
            chain.append(e)
            e = getattr(e, "exc", None) or e.__cause__ or e.__context__
        stop = next((e for e in chain if isinstance(e, _Stop)), None)
        if stop is not None:
            return RobotFileError(_short(str(stop), 500), self.path)
        if any(isinstance(e, (RecursionError,)) for e in chain):
            return RobotFileError("the xacro nests too deeply (includes or macros calling "
                                  "themselves?)", self.path)
        if self.missing_package:
            pkg = self.missing_package
            return RobotFileError(f"xacro: $(find {pkg}): no package {pkg!r} (give its "
                                  "folder with --package-path NAME=DIR or ROS_PACKAGE_PATH)",
                                  self.path)
        arg = next((str(e.args[0]) for e in chain if isinstance(e, subst.ArgException)
                    and e.args), None) or self.missing_arg
        if arg:
            return RobotFileError(f"the file needs the xacro argument {arg!r}: give it with "
                                  f"--xacro-arg {arg}:=VALUE (xacro_args={{{arg!r}: ...}} in "
                                  "Python)", self.path)
        return RobotFileError(f"xacro could not expand the file: {_short(exc, 400)}",
                              self.path)


_ENTITY = re.compile(rb"<!ENTITY", re.IGNORECASE)


def _refuse_entities(raw: bytes, filename) -> None:
    if _ENTITY.search(raw[:1 << 20]) or _ENTITY.search(raw):
        raise _Stop(f"{filename}: XML entity declarations (<!ENTITY>) are not allowed in a "
                    "robot file")


def expand_xacro(path: Path, resolver, roots, args: Mapping[str, str] | None = None) -> str:
    """The URDF text of the xacro file ``path``: includes, YAML and ``$(find)`` confined to
    the folders ``roots``; ``args`` the values of ``$(arg NAME)``. Raises RobotFileError
    naming the file (and the line and expression, for a refused expression)."""
    return _Run(Path(path), resolver, roots, args or {}).expand()


def xacro_arg_declarations(path, max_bytes: int | None = None) -> dict[str, str | None]:
    """The arguments of the file itself (not its includes): its ``<xacro:arg name
    default>`` elements, name -> default text, in file order, then the names it uses in
    ``$(arg NAME)`` without declaring them (-> None: the caller must give them)."""
    from lxml import etree

    raw = read_guarded(path, max_bytes or limits().xml_bytes)
    try:
        _refuse_entities(raw, path)
        root = etree.fromstring(raw, etree.XMLParser(resolve_entities=False, no_network=True))
    except (_Stop, etree.XMLSyntaxError) as exc:
        raise RobotFileError(f"cannot read the xacro arguments ({_short(exc, 200)})",
                             path) from None
    out: dict[str, str | None] = {}
    for el in root.iter(f"{{{XACRO_NS}}}arg"):
        name = el.get("name")
        if name:
            out[name] = el.get("default")
    for name in re.findall(r"\$\(arg\s+([^\s)]+)\s*\)", raw.decode("utf-8", "replace")):
        out.setdefault(name, None)
    return out
