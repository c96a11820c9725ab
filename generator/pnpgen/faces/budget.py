"""What one face's template may cost, counted (never timed): Jinja's sandbox, so a template from
a shared game folder cannot reach Python's internals (``''.__class__…``), with bounds on loops,
on numbers, and on every text or list it makes: by ``*``, ``+``, ``~``, ``%``, ``.format()``, a
text or list method, or a filter (``center``, ``indent``, ``wordwrap``, ``batch`` …). A result
that would pass MAX_FACE_CHARS is refused before it is made where its size is known beforehand,
and any other as soon as it is made, so no face takes gigabytes or minutes; and bounds on all a
face works through together (every text or list made, sliced, compared, searched or given to a
filter or method) and on its calls, so no loop or recursion within the other bounds takes hours
either. ``random`` is not there: a build is the same bytes for the same inputs."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from functools import wraps
from itertools import chain
from string import Formatter
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.ext import Extension
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import SandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from pnpgen.errors import InputError
from pnpgen.faces.pieceview import PieceView, has_field
from pnpgen.patterns import later

# Without these a template that loops 10**9 times, or writes "x" * 10**9, runs until killed.
MAX_LOOP_ITEMS = 1_000_000  # iterations of all the {% for %} loops of one face together
MAX_FACE_CHARS = 10_000_000  # the face's SVG text, and any text or list a template makes
MAX_POWER_BITS = 4096  # an integer ** that would be larger is refused before it is computed
MAX_WRAPPED_CHARS = 100_000  # the wordwrap filter: its work grows with the square of a long word
# What one face's template may handle in all: the characters and items of every text or list an
# operator, filter or method makes, works through or is given, and every operand compared (``in``
# searches). A loop within MAX_LOOP_ITEMS whose every turn works through a text of millions
# (``s|list|unique``, ``'y' in s``, ``s.count('y')``) took hours, each text within MAX_FACE_CHARS.
MAX_FACE_HANDLED = 100_000_000
# Calls of one face's template (macros, helpers, methods): a macro calling itself twice, 25 deep,
# made 33 million calls (a quarter of an hour) within every other bound; a real face makes hundreds.
MAX_FACE_CALLS = 200_000
# Jinja tokens (names, numbers, operators, tag marks) of one template: Jinja lexes, parses and
# compiles every one before the first face, so 2,000,000 ``{{ x }}`` (14 MB, within the size cap)
# took minutes and gigabytes; 100,000 take a few seconds. The largest shipped template holds 5,200.
MAX_TEMPLATE_TOKENS = 100_000
# The filter every compared operand and slice goes through, counted (a name no template can write)
OPERAND = "pnpgen-operand"
# Methods that do not work through their text or list (``xs.append`` in a loop is not quadratic).
QUICK_METHODS = frozenset(["append", "pop", "get", "setdefault", "add", "keys", "values", "items",
                           "startswith", "endswith"])
BYTES_MAKERS = frozenset(["encode", "to_bytes"])  # a text's and a number's methods that make bytes (refused)
# Filters that do not work through the text or list they are given (``s|length`` is its size).
QUICK_FILTERS = frozenset(["length", "count", "first", "last", "default", "d", "attr", "safe"])


class FaceBudgetError(InputError):
    """A face went over MAX_LOOP_ITEMS, MAX_FACE_CHARS or MAX_POWER_BITS."""


def _too_long(what: str) -> FaceBudgetError:
    return FaceBudgetError(f"{what} would make more than {MAX_FACE_CHARS:,} characters or items",
                           expected="a shorter text or list")


def _held(value: Any) -> int:
    """How many characters or items a text or list holds (0 for anything else)."""
    return len(value) if isinstance(value, (str, list, tuple, dict, set, frozenset)) else 0


def _size(value: Any) -> int:
    """How many characters (or items) ``value`` puts in a text or list."""
    return len(value) if isinstance(value, (str, list, tuple, dict)) else len(str(value))


def _made(value: Any, what: str) -> Any:
    """``value``, unless it is a text or list over MAX_FACE_CHARS (one made without a size known
    beforehand: it goes no further, and the next step cannot multiply it)."""
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_FACE_CHARS:
        raise _too_long(what)
    return value


class LoopBudget(Extension):
    """The loops of the face being rendered, counted item by item against MAX_LOOP_ITEMS
    (``items`` is reset for each face), and every ``~`` join measured before it is made."""

    def __init__(self, environment: jinja2.Environment):
        super().__init__(environment)
        self.items = 0
        self.handled = 0
        self.calls = 0

        def operand(value: Any) -> Any:
            return self.handle(value)

        operand.measured = True  # type: ignore[attr-defined]  # (counted here: not wrapped by _measured)
        environment.filters[OPERAND] = operand

    def reset(self) -> None:
        """A new face: its loops and what it handles counted from nought."""
        self.items = self.handled = self.calls = 0

    def called(self) -> None:
        """One more call, counted against MAX_FACE_CALLS."""
        self.calls += 1
        if self.calls > MAX_FACE_CALLS:
            raise FaceBudgetError(f"the face's template made more than {MAX_FACE_CALLS:,} calls (of macros, helpers "
                                  "and methods)", expected=f"at most {MAX_FACE_CALLS:,} calls on one face: a value "
                                  "worked out once before a loop ({% set ink = colour('ink') %}), not in every turn, "
                                  "and a macro that calls itself at most once")

    def handle(self, value: Any) -> Any:
        """``value``, its size counted against MAX_FACE_HANDLED."""
        self.handled += _held(value)
        if self.handled > MAX_FACE_HANDLED:
            raise FaceBudgetError(f"the face's template worked through more than {MAX_FACE_HANDLED:,} characters "
                                  "or items of texts and lists (made, sliced, compared, searched, tested, or given "
                                  "to filters and methods)", expected="work on the piece's data, not on texts or lists of millions "
                                  "again and again")
        return value

    def counted(self, items: Iterable) -> Iterator:
        for item in items:
            self.items += 1
            if self.items > MAX_LOOP_ITEMS:
                raise FaceBudgetError(f"the face's loops ran more than {MAX_LOOP_ITEMS:,} times",
                                      expected="loops over the piece's data, not ranges of millions")
            yield item

    def joined(self, context: jinja2.runtime.Context, *parts: Any) -> str:
        """``a ~ b ~ …`` as Jinja joins it, refused when it would be too long: doubling a text in
        a loop (``{% set ns.s = ns.s ~ ns.s %}``) reaches a terabyte in 40 turns."""
        if sum(_size(p) for p in parts) > MAX_FACE_CHARS:
            raise _too_long("joining texts with ~")
        for p in parts:
            self.handle(p)
        parts = tuple(printed(p) for p in parts)
        return (markup_join if context.eval_ctx.autoescape else str_join)(parts)


class _GuardedNodes(NodeTransformer):
    def visit_Compare(self, node: nodes.Compare) -> nodes.Node:
        self.generic_visit(node)
        node.expr = self._operand(node.expr)
        for op in node.ops:
            op.expr = self._operand(op.expr)
        return node

    def visit_Getitem(self, node: nodes.Getitem) -> nodes.Node:
        self.generic_visit(node)
        return self._operand(node) if isinstance(node.arg, nodes.Slice) else node  # s[1:] is a copy of s

    @staticmethod
    def _operand(expr: nodes.Expr) -> nodes.Expr:
        """``expr`` through the OPERAND filter: a filter is called directly, not through the
        sandbox's ``call`` (twice as slow in a template of many comparisons)."""
        return nodes.Filter(expr, OPERAND, [], [], None, None, lineno=expr.lineno)

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        counted = nodes.ExtensionAttribute(LoopBudget.identifier, "counted", lineno=node.lineno)
        node.iter = nodes.Call(counted, [node.iter], [], None, None, lineno=node.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        joined = nodes.ExtensionAttribute(LoopBudget.identifier, "joined", lineno=node.lineno)
        return nodes.Call(joined, [nodes.ContextReference(lineno=node.lineno), *node.nodes], [], None, None,
                          lineno=node.lineno)


class _CountedLoops(CodeGenerator):
    """Compiles every ``{% for %}`` to iterate through ``LoopBudget.counted``, so all the loops
    of a face share one budget, and every ``~`` to join through ``LoopBudget.joined`` (Jinja has
    no hook on iteration; ``code_generator_class`` is its documented way to change the generated
    code, ``ExtensionAttribute`` an extension's own)."""

    def visit_Template(self, node: nodes.Template, frame=None) -> None:
        _GuardedNodes().visit(node)
        super().visit_Template(node, frame)


# What Python writes for an object without a text of its own: ``<built-in method upper of
# FieldText object at 0x7f…>``, a memory address, different on every run (escaped too, in SVG)
ADDRESS = later(r"(?i) at 0x[0-9a-f]{4,}(?:>|&gt;|&#62;)")  # (upper: in capitals too)


def printed(value: Any) -> Any:
    """What ``{{ … }}`` prints, unless it is a function or an object without a text of its own:
    ``{{ piece.name.upper }}`` (brackets forgotten) or ``{{ piece }}`` printed Python's name for
    it, with a memory address, on the card: text that differs from build to build."""
    if isinstance(value, (str, int, float, bool, type(None))) or not ADDRESS.search(str(value)):
        return value  # (a text is data: never searched)
    name = getattr(value, "__name__", None)
    if callable(value) and name:
        raise InputError(f"prints {name}, a function or method, not a value (Python's name for it, which "
                         "differs from build to build)", expected=f"{name}() with brackets, to print what it gives")
    raise InputError(f"prints a Python object ({type(value).__name__}) itself, or a list of them, not a value "
                     "(Python's name for it, which differs from build to build)",
                     expected="one of its values, e.g. piece.name")


def _no_address(made: Any, given: Iterable[Any]) -> Any:
    """``made``, unless it is a text holding Python's name of one of ``given`` (a filter's value,
    a call's arguments): ``piece.values|e``, ``[piece]|join`` or ``piece|pprint`` made text of a
    memory address as ``{{ piece }}`` would, on the card (a text given is data: never searched)."""
    if not isinstance(made, str):
        return made
    objects = [value for value in given if not isinstance(value, (str, int, float, bool, type(None)))]
    if objects and ADDRESS.search(made):
        for value in objects:
            printed(value)  # (says which: a function, or an object)
        raise InputError("makes a text of Python's name for an object (with its memory address, which differs "
                         "from build to build)", expected="one of its values, e.g. piece.name")
    return made


class FaceEnvironment(SandboxedEnvironment):
    """Jinja's sandbox with the per-face bounds above."""

    code_generator_class = _CountedLoops
    intercepted_binops = frozenset(("*", "**", "+", "%"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, finalize=printed, **kwargs)
        del self.filters["random"]  # a different face each build
        self.filters.update(center=_center, indent=_indent, wordwrap=_wordwrap, replace=_replace, format=_format,
                            join=_join, batch=_batch, slice=_slice, sum=_sum)
        self.filters.update(string=lambda value: jinja2.filters.soft_str(printed(value)))
        self.filters.update({name: _measured(f, name, self) for name, f in self.filters.items()})
        self.tests.update({name: _measured_test(t, self) for name, t in self.tests.items()})

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """The sandbox's, and no way to bytes: ``'x'.encode()`` or ``(1).to_bytes(n)`` made bytes,
        which no face prints and no bound above measures (``(1).to_bytes(10**9, 'big')``, ``'x'.encode()
        * 10**9``: gigabytes)."""
        if attr in BYTES_MAKERS and isinstance(obj, (str, int)):
            return False
        return bool(super().is_safe_attribute(obj, attr, value))

    def parse(self, source: str, name: str | None = None, filename: str | None = None) -> nodes.Template:
        _check_tokens(self, source, name)
        try:
            return super().parse(source, name, filename)
        except RecursionError:
            raise _too_deep(name) from None

    def compile(self, source: Any, name: str | None = None, filename: str | None = None,
                raw: bool = False, defer_init: bool = False) -> Any:
        """Jinja's, with the template's tokens counted first and a nesting deeper than Jinja's
        parser and compiler recurse, or than Python compiles the code it makes of it (20 loops, 100
        ifs one inside another), said as that (not as a template that calls itself, nor at the deck)."""
        if isinstance(source, str):
            _check_tokens(self, source, name)
        try:
            return super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload]
        except (RecursionError, SyntaxError):  # SyntaxError: Python's, of the code Jinja wrote ('too many statically
            raise _too_deep(name) from None  # nested blocks', 'too many levels of indentation'), not the template's

    def getattr(self, obj: Any, attribute: str) -> Any:
        """The sandbox's, but ``piece.items`` (``values``, ``keys``, ``get``) is the piece's field
        of that name where it has one: Jinja tries an object's attribute before its item."""
        if isinstance(obj, PieceView) and isinstance(attribute, str) and has_field(obj, attribute):
            return obj[attribute]
        return super().getattr(obj, attribute)

    def handle(self, value: Any) -> Any:
        """``value``, counted against the face's MAX_FACE_HANDLED (by its LoopBudget)."""
        budget = self.extensions.get(LoopBudget.identifier)
        return budget.handle(value) if isinstance(budget, LoopBudget) else value

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and _too_big_power(left, right):
            raise FaceBudgetError(f"{left!r:.20} ** {right!r:.20} is too large a number",
                                  expected=f"results within {MAX_POWER_BITS} bits")
        if operator == "*" and _too_long_repeat(left, right):
            raise FaceBudgetError(f"repeating {type(left).__name__ if isinstance(right, int) else type(right).__name__} "
                                  f"that many times makes more than {MAX_FACE_CHARS:,} items",
                                  expected="a shorter text or list")
        if operator == "+" and all(isinstance(v, (str, list, tuple)) for v in (left, right)) \
                and len(left) + len(right) > MAX_FACE_CHARS:
            raise _too_long("adding texts or lists with +")
        if operator == "%" and isinstance(left, str):
            _check_percent(left, right)
        return self.handle(super().call_binop(context, operator, left, right))

    def call(__self, __context, __obj, *args, **kwargs):
        budget = __self.extensions.get(LoopBudget.identifier)
        if isinstance(budget, LoopBudget):
            budget.called()
        name = getattr(__obj, "__name__", "")
        if _too_long_str_call(__obj, args):
            raise FaceBudgetError(f"{name}() would make a text of more than {MAX_FACE_CHARS:,} characters",
                                  expected="a shorter text")
        owner = getattr(__obj, "__self__", None)
        if name == "join" and isinstance(owner, str) and args:  # its parts measured before they are joined
            args = (_joinable(args[0], owner, "join()"), *args[1:])
        if name == "extend" and isinstance(owner, list) and args:  # xs.extend(xs) in a loop doubles it
            args = (list(args[0]) if not isinstance(args[0], (list, tuple, str, dict)) else args[0], *args[1:])
            if len(owner) + len(args[0]) > MAX_FACE_CHARS:
                raise _too_long("extend()")
        if isinstance(owner, (str, list, tuple, dict)) and name not in QUICK_METHODS:
            __self.handle(owner)
        made = _made(super().call(__context, __obj, *args, **kwargs), f"{name}()")
        return __self.handle(_no_address(made, chain(args, kwargs.values())))

    def wrap_str_format(self, value: Any) -> Any:
        """``text.format(…)`` and ``format_map`` through a formatter that measures each field
        (a width of 10**9 in ``'{:>999999999}'``, a hundred copies of a long text) as it goes."""
        if super().wrap_str_format(value) is None:
            return None
        text, by_map = value.__self__, value.__name__ == "format_map"
        formatter = (_BoundedEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup)
                     else _BoundedFormatter(self))

        def bounded(*args: Any, **kwargs: Any) -> str:
            if by_map and (kwargs or len(args) != 1):
                raise TypeError("format_map() takes exactly one argument")
            formatter.made = 0
            return type(text)(formatter.vformat(text, (), args[0]) if by_map else formatter.vformat(text, args, kwargs))

        return bounded


def _check_tokens(env: jinja2.Environment, source: str, name: str | None) -> None:
    """Refuse a template of more than MAX_TEMPLATE_TOKENS tokens, at the line where it passes
    them, lexing no further (a token is at least one character: a shorter text is not lexed)."""
    if len(source) <= MAX_TEMPLATE_TOKENS:
        return
    for n, (line, _, _) in enumerate(env.lexer.tokeniter(source, name), 1):
        if n > MAX_TEMPLATE_TOKENS:
            raise InputError(f"template {name!r} holds more than {MAX_TEMPLATE_TOKENS:,} Jinja tokens (names, numbers, "
                             "operators, tag marks) by this line: Jinja would take minutes and gigabytes to read it",
                             path=f"templates/{name}", line=line, key="template",
                             expected=f"at most {MAX_TEMPLATE_TOKENS:,} (the largest shipped template holds 5,200): "
                             "a long list of values belongs in the deck's data, loops over it in the template")


def _too_deep(name: str | None) -> InputError:
    return InputError(f"template {name!r} nests brackets, blocks ({{% if %}}, {{% for %}}) or a chain of operators, "
                      "filters or attributes (a + b + …, x|f|g…) deeper than Jinja can read", path=f"templates/{name}",
                      key="template", expected="a few dozen levels at most: a long sum or chain split over "
                      "{% set %} lines, and blocks side by side rather than one inside another")


class _Measured(Formatter):
    made = 0

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return super().convert_field(printed(value), conversion)  # ({!r} of an object: its address)

    def format_field(self, value: Any, format_spec: str) -> Any:
        _check_widths(format_spec, "a format field")
        printed(value)
        out = super().format_field(value, format_spec)
        self.made += len(out)
        if self.made > MAX_FACE_CHARS:
            raise _too_long("format()")
        return out


class _BoundedFormatter(_Measured, SandboxedFormatter):
    pass


class _BoundedEscapeFormatter(_Measured, SandboxedEscapeFormatter):
    pass


_DIGITS = later(r"\d+")
_PERCENT = later(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?([a-zA-Z%])")


def _check_widths(spec: str, what: str) -> int:
    """The widths and precisions written in a format spec, summed; refused past MAX_FACE_CHARS."""
    numbers = _DIGITS.findall(spec)
    if any(len(n) > 8 for n in numbers) or sum(int(n) for n in numbers) > MAX_FACE_CHARS:
        raise _too_long(what)
    return sum(int(n) for n in numbers)


def _check_percent(text: str, values: Any) -> None:
    """``text % values`` (the ``%`` operator, the ``format`` filter), measured before it is made:
    its widths (``%0999999999d``, ``%*d``) and each field at most as long as the longest value."""
    args = list(values.values()) if isinstance(values, Mapping) else list(values) if isinstance(values, tuple) \
        else [values]
    for a in args:  # what % makes of an object or a function is its address (as {{ }} would print it)
        printed(a)
    fields = _PERCENT.findall(text)
    widths = _check_widths(" ".join(w + " " + p for w, p, _ in fields), "a % format")
    if any("*" in (w, p) for w, p, _ in fields):
        widths += sum(a for a in args if isinstance(a, int) and not isinstance(a, bool))
    distinct = {id(a): a for a in args}.values()  # (a value given a thousand times is measured once)
    quoted = 4 if any(kind in "ra" for _, _, kind in fields) else 1  # %r writes '\x00' for one character
    longest = max((quoted * len(a) + 2 if isinstance(a, str) else _size(a) for a in distinct), default=0)
    if len(text) + widths + len(fields) * longest > MAX_FACE_CHARS:
        raise _too_long("a % format")


def _joinable(items: Any, separator: str, what: str) -> list:
    """``items`` as a list whose join with ``separator`` stays within MAX_FACE_CHARS."""
    items = list(items)
    if max(len(items) - 1, 0) * len(separator) + sum(_size(i) for i in items) > MAX_FACE_CHARS:
        raise _too_long(what)
    return items


def _measured(filter_: Any, name: str, environment: FaceEnvironment) -> Any:
    """A filter whose result is refused once made, if over MAX_FACE_CHARS, and whose value and
    result count against the face's MAX_FACE_HANDLED (what it passes Jinja, ``jinja_pass_arg``,
    kept by ``wraps``)."""
    if getattr(filter_, "measured", False):
        return filter_
    value_at = 1 if getattr(filter_, "jinja_pass_arg", None) is not None else 0  # after the env or context
    quick = name in QUICK_FILTERS

    @wraps(filter_)
    def run(*args: Any, **kwargs: Any) -> Any:
        if not quick and len(args) > value_at:
            environment.handle(args[value_at])
        made = _made(filter_(*args, **kwargs), f"the filter {name}")
        return environment.handle(_no_address(made, args[value_at:value_at + 1]))

    run.measured = True  # type: ignore[attr-defined]
    return run


def _measured_test(test: Any, environment: FaceEnvironment) -> Any:
    """A test (``'y' is in s``) whose values count against the face's MAX_FACE_HANDLED, as the
    operands of a comparison do."""
    @wraps(test)
    def run(*args: Any, **kwargs: Any) -> Any:
        for value in args:
            environment.handle(value)
        return test(*args, **kwargs)

    return run


def _center(value: Any, width: int = 80) -> str:
    if isinstance(width, int) and width > MAX_FACE_CHARS:
        raise _too_long("the filter center")
    return jinja2.filters.do_center(value, width)


def _indent(s: str, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    lines = str(s).count("\n") + 1
    if _size(s) + lines * (width if isinstance(width, int) else len(str(width))) > MAX_FACE_CHARS:
        raise _too_long("the filter indent")
    return jinja2.filters.do_indent(s, width, first, blank)


@jinja2.pass_environment
def _wordwrap(environment: jinja2.Environment, s: str, width: int = 79, break_long_words: bool = True,
              wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    if _size(s) > MAX_WRAPPED_CHARS:
        raise FaceBudgetError(f"the filter wordwrap is given a text of more than {MAX_WRAPPED_CHARS:,} characters",
                              expected="a shorter text (a card's text is at most 20,000)")
    lines = _size(s) // max(int(width), 1) + 1
    if _size(s) + lines * len(wrapstring if wrapstring is not None else environment.newline_sequence) > MAX_FACE_CHARS:
        raise _too_long("the filter wordwrap")
    return jinja2.filters.do_wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)


@jinja2.pass_eval_context
def _replace(eval_ctx: Any, s: str, old: str, new: str, count: int | None = None) -> str:
    text, old_, new_ = str(s), str(old), str(new)
    times = (text.count(old_) if old_ else len(text) + 1) if count is None or count < 0 else count
    if len(text) + times * max(len(new_) - len(old_), 0) > MAX_FACE_CHARS:
        raise _too_long("the filter replace")
    return jinja2.filters.do_replace(eval_ctx, s, old, new, count)


def _format(value: str, *args: Any, **kwargs: Any) -> str:
    _check_percent(str(value), kwargs or tuple(args))
    return jinja2.filters.do_format(value, *args, **kwargs)


@jinja2.pass_eval_context
def _join(eval_ctx: Any, value: Iterable[Any], d: str = "", attribute: str | int | None = None) -> str:
    if attribute is not None:
        value = map(jinja2.filters.make_attrgetter(eval_ctx.environment, attribute), value)
    return jinja2.filters.do_join(eval_ctx, _joinable(value, str(d), "the filter join"), d)


def _batch(value: Iterable[Any], linecount: int, fill_with: Any = None) -> Iterator[list]:
    if fill_with is not None and linecount > MAX_FACE_CHARS:
        raise _too_long("the filter batch")
    return jinja2.filters.do_batch(value, linecount, fill_with)


@jinja2.pass_eval_context
def _slice(eval_ctx: Any, value: Any, slices: int, fill_with: Any = None) -> Iterator[list]:
    if slices > MAX_LOOP_ITEMS:
        raise FaceBudgetError(f"the filter slice makes more than {MAX_LOOP_ITEMS:,} slices",
                              expected="fewer slices")
    return jinja2.filters.do_slice(eval_ctx, value, slices, fill_with)


@jinja2.pass_environment
def _sum(environment: jinja2.Environment, iterable: Iterable[Any], attribute: str | int | None = None,
         start: Any = 0) -> Any:
    """Lists added up in one pass: Python's sum() of lists copies the growing list for each."""
    if not isinstance(start, (list, tuple)):
        return jinja2.filters.do_sum(environment, iterable, attribute, start)
    if attribute is not None:
        iterable = map(jinja2.filters.make_attrgetter(environment, attribute), iterable)
    items = list(iterable)
    if not all(isinstance(i, type(start)) for i in items):
        return jinja2.filters.do_sum(environment, items, None, start)  # Python's own error for a mix
    if len(start) + sum(len(i) for i in items) > MAX_FACE_CHARS:
        raise _too_long("the filter sum")
    return type(start)(chain(start, *items))


def _too_big_power(left: Any, right: Any) -> bool:
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right))
    return ints and abs(left) > 1 and right > 0 and right * math.log2(abs(left)) > MAX_POWER_BITS


def _too_long_str_call(method: Any, args: tuple) -> bool:
    """A text method whose result would pass MAX_FACE_CHARS, found before it is built:
    ``s.replace('x', s)`` of a long ``s``, ``s.center(10**9)``, ``s.translate({97: s})``."""
    text = getattr(method, "__self__", None)
    if not isinstance(text, str):
        return False
    name = getattr(method, "__name__", "")
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        times = text.count(args[0]) if args[0] else len(text) + 1
        return len(text) + times * (len(args[1]) - len(args[0])) > MAX_FACE_CHARS
    if name in ("center", "ljust", "rjust", "zfill") and args and isinstance(args[0], int):
        return args[0] > MAX_FACE_CHARS
    if name == "expandtabs" and args and isinstance(args[0], int):
        return len(text) + text.count("\t") * args[0] > MAX_FACE_CHARS
    if name == "translate" and args and isinstance(args[0], Mapping):
        longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
        return len(text) * longest > MAX_FACE_CHARS
    return False


def _too_long_repeat(left: Any, right: Any) -> bool:
    for seq, n in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_FACE_CHARS:
            return True
    return False
