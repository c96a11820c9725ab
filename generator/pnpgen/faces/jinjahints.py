"""A template's Jinja mistakes in the designer's words. A syntax error: where the block left open
was opened, the tag or filter meant by a slip, the ``}}`` or ``%}`` a line leaves out (Jinja names
only where its parser stopped and what it looked for: ``expected token ':', got '}'``). And art a
child template writes outside its parent's blocks, which Jinja leaves out without a word. And a
macro or helper called with a keyword it does not take: the macro's arguments, the one meant."""

from __future__ import annotations

import re
from collections.abc import Iterable

import jinja2
from jinja2 import nodes

from pnpgen.errors import suggest
from pnpgen.patterns import later

# Jinja's statements (its own and the loop controls): what a misspelt tag is most likely meant to be
TAGS = ("for", "endfor", "if", "elif", "else", "endif", "set", "endset", "block", "endblock", "extends",
        "include", "import", "from", "macro", "endmacro", "call", "endcall", "filter", "endfilter",
        "with", "endwith", "raw", "endraw", "autoescape", "endautoescape", "break", "continue")
_OTHER_LANGUAGES = {"elseif": "elif", "elsif": "elif", "elsf": "elif", "foreach": "for", "endforeach": "endfor",
                    "endeach": "endfor"}  # the words of PHP, Perl, Twig for Jinja's tags
_BLOCKS = ("for", "if", "block", "macro", "call", "filter", "with", "raw", "autoescape", "set")
_STATEMENT = later(r"\{%[-+]?\s*(\w+)([^%]*)")  # the tag's word and (up to a %) what follows it
_OPEN_BLOCK = later(r"innermost block that needs to be closed is '(\w+)'")
_TAG_OF: dict[type[nodes.Node], str] = {nodes.If: "if", nodes.For: "for", nodes.With: "with", nodes.FilterBlock: "filter",
           nodes.CallBlock: "call", nodes.ScopedEvalContextModifier: "autoescape"}  # a statement around a block
_COMMENT = later(r"<!--.*?-->", re.S)  # an XML comment outside the blocks: not printed, and no art lost


def syntax_mistake(message: str, line: int | None, source: str | None,
                   filters: Iterable[str]) -> tuple[str, str | None, int | None]:
    """(message, what would be right, the line to name) for Jinja's ``TemplateSyntaxError`` at
    ``line`` of ``source``."""
    lines = (source or "").splitlines()
    at = line if line and 0 < line <= len(lines) else len(lines)
    unknown = re.match(r"Encountered unknown tag '(\w+)'", message)
    if unknown and unknown.group(1) not in TAGS:  # a slip of the pen: {% fro %}, {% endfro %}
        word = unknown.group(1)
        swapped = [t for t in TAGS if sorted(t) == sorted(word)]  # letters swapped: fro, edif
        said = _OTHER_LANGUAGES.get(word) or (swapped[0] if len(swapped) == 1 else None)
        meant = f"; did you mean {said}?" if said else suggest(word, TAGS)
        return f"unknown tag {{% {word} %}}{meant}", "a Jinja tag: " + ", ".join(TAGS[:12]) + ", …", line
    if unknown and unknown.group(1).startswith("end") and at:  # {% endfor %} where no for is open: one too many
        stray = _stray_end(lines[:at])
        if stray is not None and stray[0] == unknown.group(1):
            word, n, still = stray
            inner = f"; the {{% {still[-1][0]} %}} of line {still[-1][1]} is the block open there" if still else ""
            return (f"{{% {word} %}} closes no {{% {word[3:]} %}}: none is open here{inner}",
                    f"{{% {word} %}} only after the {{% {word[3:]} %}} it closes, once" +
                    (f"; {{% end{still[-1][0]} %}} to close the {still[-1][0]}" if still and still[-1][0] != "block" else ""),
                    n)
    misnamed = re.search(r"\{%[-+]?\s*endblock\s+(\w+)", lines[at - 1]) if at and "got '" in message else None
    if misnamed and message.endswith(f"got '{misnamed.group(1)}'"):  # {% endblock arts %} closing {% block art %}
        before = [*lines[:at - 1], lines[at - 1][:misnamed.start()]]
        opened = next((n for tag, n in reversed(_open_blocks(before)) if tag == "block"), None)
        name = _block_name(lines[opened - 1]) if opened else None
        if opened and name:
            return (f"{{% endblock {misnamed.group(1)} %}} names another block than the one it closes, "
                    f"the {{% block {name} %}} of line {opened}",
                    f"{{% endblock {name} %}}, or {{% endblock %}}", line)
    if at and "got 'if'" in message and re.search(r"\{%[-+]?\s*else\s+if\b", lines[at - 1]):  # got 'if': Jinja's else takes no test
        return f"{{% else if … %}} is no Jinja tag ({message})", "{% elif … %}", line
    left_open = _OPEN_BLOCK.search(message)
    if left_open:  # the block not closed: the line it opened on (the innermost still open)
        name = left_open.group(1)
        before = lines[:at - 1]
        if unknown and at:  # and the stopping line up to the tag Jinja stopped at
            before.append(re.split(rf"\{{%[-+]?\s*{unknown.group(1)}\b", lines[at - 1])[0])
        opened = next((n for tag, n in reversed(_open_blocks(before)) if tag == name), None)
        if opened is not None:
            return (f"the {{% {name} %}} of line {opened} is never closed ({message})",
                    f"{{% end{name} %}} where the {name} block ends", line)
    no_filter = re.match(r"No filter named '(\w+)'", message)
    if no_filter:
        return message.rstrip(".") + suggest(no_filter.group(1), filters), None, line
    for n in (at, at - 1):  # Jinja may stop on the line after the one left open
        text = lines[n - 1] if n > 0 else ""
        for opening, closing, what in (("{{", "}}", "{{ … }}"), ("{%", "%}", "{% … %}"), ("{#", "#}", "{# … #}"),
                                        ("(", ")", "( … )")):
            if text.count(opening) > text.count(closing):
                return message, f"{closing} closing the {what} this line opens", n
    return message, None, line


def _block_name(text: str) -> str | None:
    """The name of the last ``{% block name %}`` opened on a line."""
    names = re.findall(r"\{%[-+]?\s*block\s+(\w+)", text)
    return names[-1] if names else None


def _word(m: re.Match[str]) -> str:
    """A statement's word, as it opens a block: {% set x %} does, {% set x = 1 %} does not."""
    return "set=" if m.group(1) == "set" and "=" in m.group(2) else m.group(1)


def _stray_end(lines: list[str]) -> tuple[str, int, list[tuple[str, int]]] | None:
    """The first end tag (``endfor``) closing a block that is not open, its line, and the blocks
    open there (outermost first, each with its line)."""
    return _walk_blocks(lines, stop_at_stray=True)[0]


def _open_blocks(lines: list[str]) -> list[tuple[str, int]]:
    """The blocks still open after ``lines``, outermost first, each with the line it opened on."""
    return _walk_blocks(lines, stop_at_stray=False)[1]


def _walk_blocks(lines: list[str], stop_at_stray: bool) -> tuple[tuple[str, int, list[tuple[str, int]]] | None,
                                                                   list[tuple[str, int]]]:
    """Jinja's block statements of ``lines`` followed: (the first stray end tag, its line and the
    blocks open there, when ``stop_at_stray``; else None and a stray end is passed over), and the
    blocks open at the end (or at the stray end)."""
    stack: list[tuple[str, int]] = []
    for n, text in enumerate(lines, 1):
        for m in _STATEMENT.finditer(text):
            word = _word(m)
            if word in _BLOCKS:
                stack.append((word, n))
            elif word.startswith("end") and word[3:] in _BLOCKS:
                at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0] == word[3:]), None)
                if at is None:
                    if stop_at_stray:
                        return (word, n, stack), stack
                    continue
                del stack[at:]
    return None, stack


def unprinted(env: jinja2.Environment, name: str) -> tuple[str, int | None, str] | None:
    """(what, line, what would be right) for a template that extends another but writes something
    outside the blocks that template has: Jinja prints a child template's blocks only, so art
    outside ``{% block art %}`` (or in a block of another name) left the face blank, silently."""
    tree, parent = _parent(env, name)
    if parent is None:
        return None
    try:
        blocks = sorted(_blocks(env, parent))
    except jinja2.TemplateNotFound:  # said as the template renders, at its extends line
        return None
    said = ", ".join(f"{{% block {b} %}}" for b in blocks)
    body = tree.body
    after = next((i for i, node in enumerate(body) if isinstance(node, nodes.Extends)), len(body))
    for node in body[after + 1:]:  # (what stands before the extends is printed, before the parent's text)
        if isinstance(node, nodes.Block):
            if node.name not in blocks:
                return _no_block(node, parent, blocks)
            continue
        if isinstance(node, (nodes.Extends, nodes.Import, nodes.FromImport, nodes.Assign, nodes.AssignBlock,
                             nodes.Macro)):
            continue
        included = node if isinstance(node, nodes.Include) else next(iter(node.find_all(nodes.Include)), None)
        if included is not None:  # Jinja prints it before the parent's <svg>: never on the face
            return (f"this {{% include %}} is outside the blocks of {parent} it extends, so what it includes is "
                    "printed outside the face's <svg>, never on the face", included.lineno,
                    f"the {{% include %}} inside {said} … {{% endblock %}}")
        inner = next(iter(node.find_all(nodes.Block)), None)
        if inner is not None and inner.name in blocks:  # Jinja fills a child's blocks whatever an {% if %} around says
            tag = _TAG_OF.get(type(node), "if")
            return (f"{{% block {inner.name} %}} stands inside a {{% {tag} %}}, which Jinja does not apply to a block: "
                    f"the block always fills its place in {parent}", inner.lineno,
                    f"the {{% {tag} %}} inside the block: {{% block {inner.name} %}}{{% {tag} … %}} … "
                    f"{{% end{tag} %}}{{% endblock %}}")
        if inner is not None:
            return _no_block(inner, parent, blocks)
        printed = [n for n in ([node] if isinstance(node, nodes.Output) else node.find_all(nodes.Output))
                   if any(not isinstance(c, nodes.TemplateData) or _COMMENT.sub("", c.data).strip() for c in n.nodes)]
        if printed:
            return (f"this is outside the blocks of {parent} it extends, so it is never printed", printed[0].lineno,
                    f"the drawing inside {said} … {{% endblock %}}")
    return None


def _no_block(block: nodes.Block, parent: str, blocks: list[str]) -> tuple[str, int, str]:
    return (f"{{% block {block.name} %}} is no block of {parent}, so what it holds is never printed"
            f"{suggest(block.name, blocks)}", block.lineno,
            "one of its blocks: " + ", ".join(f"{{% block {b} %}}" for b in blocks))


def _parent(env: jinja2.Environment, name: str) -> tuple[nodes.Template, str | None]:
    """A template's syntax tree and the template it extends by name (None: none, or one computed)."""
    source, _, _ = env.loader.get_source(env, name) if env.loader else ("", None, None)
    key = (env.lexer, tuple(sorted(env.extensions)), name, source)  # Jinja shares a lexer per syntax settings
    if key not in _PARSED:
        tree = env.parse(source, name)
        extends = next(iter(tree.find_all(nodes.Extends)), None)
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.clear()
        _PARSED[key] = tree, str(extends.template.value) if extends and isinstance(extends.template, nodes.Const) \
            else None
    return _PARSED[key]


# ``_parent`` read once per process for the same source and syntax: each build of a game (serve's,
# a test worker's hundreds) parsed its templates again, some 3 % of a small build. Keyed on the
# syntax, not on the environment (a new one per build); the trees are only read.
_PARSED: dict[tuple, tuple[nodes.Template, str | None]] = {}
_PARSED_KEPT = 64


def _blocks(env: jinja2.Environment, name: str) -> set[str]:
    """The blocks a child of ``name`` may fill: its own and those of the templates it extends."""
    found: set[str] = set()
    seen: set[str] = set()
    at: str | None = name
    while at is not None and at not in seen:
        seen.add(at)
        found |= set(env.get_template(at).blocks)
        at = _parent(env, at)[1]
    return found


_KEYWORD = later(r"(?:unexpected|no) keyword argument '(\w+)'")


def nearly(said: str, arguments: list[str]) -> str:
    """'; did you mean layout?' for a keyword one slip from an argument; a colour given as
    ``colour=`` where the text's colour is ``ink=`` (the common macros) or ``fill=`` (textbox)."""
    m = _KEYWORD.search(said)
    if m is None:
        return ""
    word = m.group(1)
    if word in ("colour", "color", "text_colour", "text_color"):
        for meant in ("ink", "fill"):
            if meant in arguments:
                return f"; a text's colour is {meant}="
    return suggest(word, arguments, cutoff=0.7)


def macro_called(e: TypeError) -> tuple[str, list[str]] | None:
    """(name, arguments) of the Jinja macro a TypeError says was called wrongly ('macro 'title'
    takes no keyword argument 'colour''): the macro of that name among the template's own and
    those of the modules it imported (``m``), as the template frames of the traceback hold them."""
    said = re.match(r"macro '(\w+)'", str(e))
    tb = e.__traceback__ if said else None
    while tb is not None and said is not None:
        for value in tb.tb_frame.f_locals.values():
            found = getattr(value, said.group(1), None) if isinstance(value, jinja2.environment.TemplateModule) \
                else value
            if isinstance(found, jinja2.runtime.Macro) and found.name == said.group(1):
                return found.name, list(found.arguments)
        tb = tb.tb_next
    return None
