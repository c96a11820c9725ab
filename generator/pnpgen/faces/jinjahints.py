"""A Jinja syntax error in the designer's words: where the block left open was opened, the tag or
filter meant by a slip, the ``}}`` or ``%}`` a line leaves out. Jinja names only the place it
stopped at and what its parser was looking for (``expected token ':', got '}'``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pnpgen.errors import suggest

# Jinja's statements (its own and the loop controls): what a misspelt tag is most likely meant to be
TAGS = ("for", "endfor", "if", "elif", "else", "endif", "set", "endset", "block", "endblock", "extends",
        "include", "import", "from", "macro", "endmacro", "call", "endcall", "filter", "endfilter",
        "with", "endwith", "raw", "endraw", "autoescape", "endautoescape", "break", "continue")
_BLOCKS = ("for", "if", "block", "macro", "call", "filter", "with", "raw", "autoescape")
_STATEMENT = re.compile(r"\{%[-+]?\s*(\w+)")
_OPEN_BLOCK = re.compile(r"innermost block that needs to be closed is '(\w+)'")


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
        meant = f"; did you mean {swapped[0]}?" if len(swapped) == 1 else suggest(word, TAGS)
        return f"unknown tag {{% {word} %}}{meant}", "a Jinja tag: " + ", ".join(TAGS[:12]) + ", …", line
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
        for opening, closing, what in (("{{", "}}", "{{ … }}"), ("{%", "%}", "{% … %}"), ("(", ")", "( … )")):
            if text.count(opening) > text.count(closing):
                return message, f"{closing} closing the {what} this line opens", n
    return message, None, line


def _open_blocks(lines: list[str]) -> list[tuple[str, int]]:
    """The blocks still open after ``lines``, outermost first, each with the line it opened on."""
    stack: list[tuple[str, int]] = []
    for n, text in enumerate(lines, 1):
        for m in _STATEMENT.finditer(text):
            word = m.group(1)
            if word in _BLOCKS:
                stack.append((word, n))
            elif word.startswith("end") and word[3:] in _BLOCKS:
                for i in range(len(stack) - 1, -1, -1):
                    if stack[i][0] == word[3:]:
                        del stack[i:]
                        break
    return stack
