"""Card text: Japanese (and Latin) typesetting in a box.

``textbox`` sets a (marked-up) YAML text in a box in millimetres: JLREQ line breaking between
BudouX phrases, Latin words broken only at spaces, hyphens and (a word longer than the line)
hyphenation points with a visible hyphen, the 和欧間 space between Japanese and Latin, the
largest size on a 0.25 pt grid that fits, alignment, inline bold, colours, icons and ruby, and a
glyph check with fallback fonts. It returns an SVG fragment.

Modules, one job each: ``box`` (``textbox``: its checks, its warnings, the public entry this
package offers), ``cells`` (spans → measured cells, glyph check), ``linebreak`` (JLREQ + BudouX,
pure), ``layout`` (fit and align), ``svg`` (emit), ``icons`` (load icon files), ``ruby`` (how far a
reading reaches over its neighbours: one rule, vertical text's too), ``linecheck`` (an
independent JLREQ/phrase checker of set lines; the checker over every game's texts is
faces/textaudit.py, scripts/check_text.py prints it). The markup is data/markup.py's.

``break_lines(text, max_width, measure)`` is the same line breaking for plain text, for other
typesetters (the rulebook).
"""

from __future__ import annotations

from pnpgen.data.model import PLACEHOLDER_COLOUR
from pnpgen.text.box import (
    MAX_TEXT_CHARS,
    OVERFLOW_LINE,
    STATS,
    UNPAIRED_LINE,
    UNTRANSLATED_LINE,
    Record,
    TextContext,
    check_numbers,
    clear_caches,
    icon,
    icons_saved,
    layout_text,
    more_overflowing,
    more_unpaired,
    more_untranslated,
    read_glyphs,
    read_markup,
    recording,
    textbox,
    warned_at,
    wide_icon_names,
)
from pnpgen.text.layout import Layout
from pnpgen.text.linebreak import break_lines

__all__ = ["TextContext", "textbox", "read_markup", "read_glyphs", "warned_at", "check_numbers", "MAX_TEXT_CHARS", "UNTRANSLATED_LINE", "more_untranslated", "layout_text", "break_lines", "recording", "Record", "icon",
           "PLACEHOLDER_COLOUR", "Layout", "STATS", "clear_caches", "icons_saved", "OVERFLOW_LINE", "UNPAIRED_LINE",
           "more_overflowing", "more_unpaired", "wide_icon_names"]
