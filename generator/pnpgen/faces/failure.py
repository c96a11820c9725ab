"""An exception raised while a face renders, said as one line: the template file and line that led
there, the deck and piece, what went wrong and what would be right (a helper's or macro's
arguments, a name of the template vocabulary one slip away)."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
import jinja2.sandbox

from pnpgen.data.model import Game
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.errors import NAME_BYTES, PATH_BYTES, InputError, ValueMistake, suggest, too_long
from pnpgen.faces import builtin
from pnpgen.faces.budget import BYTES_MAKERS
from pnpgen.faces.face import Face
from pnpgen.faces.jinjahints import macro_called, nearly
from pnpgen.faces.pieceview import MissingField
from pnpgen.patterns import later


def _words(e: BaseException) -> str:
    """What went wrong in the words of the error, without Python's name for its kind."""
    said = " ".join(str(e).split())
    if isinstance(e, ZeroDivisionError):
        return f"a division by zero ({said})" if said else "a division by zero"
    return said or "the template stopped here"


_UNDEFINED = later(r"^'(\w+)' is undefined")
_UNSAFE = later(r"^access to attribute '([^']*)' of '([^']*)' object is unsafe")  # Jinja's sandbox's words
# the objects a template holds, named as a designer knows them (Python's class names are pnpgen's insides)
_OWNER_WORDS = {"PieceView": "the piece", "FieldText": "a text", "str": "a text", "Markup": "a text", "int": "a number",
                "float": "a number", "dict": "a mapping", "list": "a list", "tuple": "a list", "function": "a helper",
                "type": "a type", "method": "a helper", "builtin_function_or_method": "a helper"}
# what a template writer reaches for to place things round a centre (templates have none of them)
TRIGONOMETRY = frozenset({"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sqrt", "hypot", "radians", "degrees", "pi", "math"})
# "textbox() got an unexpected keyword argument 'colour'"; a helper made inside another is named by
# Python's path to it, "shape_tools.<locals>.outline() takes from 0 to 1 positional arguments"
_CALLED = later(r"^(?:[\w.]*<locals>\.)?(\w+)\(\) ")


def _helper_called(e: TypeError, context: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """(name, arguments) of the template helper a TypeError says was called wrongly, if it names one:
    one held in a namespace by the name the template writes (``shape.hex_corners``, whose function
    Python names ``corners_xy``)."""
    m = _CALLED.match(str(e))
    if m is None:
        return None
    name, helper = m.group(1), context.get(m.group(1))
    if not callable(helper):
        held = ((f"{outer}.{key}", inner) for outer, space in context.items() if isinstance(space, dict)
                for key, inner in space.items() if callable(inner) and getattr(inner, "__name__", None) == name)
        name, helper = next(held, (name, None))
    if helper is None:
        return None
    try:
        params = inspect.signature(helper).parameters.values()
    except (TypeError, ValueError):
        return None
    return name, [p.name if p.default is p.empty else f"{p.name}={p.default!r}" for p in params]


def one_line(text: str) -> str:
    """A message as one line: text from a template or the data may hold line breaks."""
    return " ".join(text.split())


class RenderFailure:
    """The renderer's failures told (``_failure``): a mixin of Renderer, which holds the
    game and its templates/ folder."""

    templates: Path
    game: Game

    def _failure(self, e: Exception, face: Face, template_name: str, where: str,
                 context: Mapping[str, Any]) -> InputError:
        """One line for an exception raised while rendering: the template file and line (the
        innermost template frame of the traceback), the deck and piece, and what went wrong; a
        helper called with an argument it does not take is answered with its arguments."""
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if f.filename and (Path(f.filename).is_relative_to(self.templates)
                                     or Path(f.filename).is_relative_to(builtin.FOLDER))]
        if isinstance(e, InputError) and e.key == "template" and str(e.path or "").startswith("templates/"):
            # the template file itself is wrong (its encoding): it is the one to name, not the deck
            return InputError(one_line(f"{e.message} (rendering {where})"), path=e.path, line=e.line, expected=e.expected)
        if isinstance(e, InputError):
            message, key, expected = e.message, e.key, e.expected
            if e.path is not None:  # where the helper found the bad value (an icon file …)
                message += f" ({e.path}{f':{e.line}' if e.line else ''})"
        elif isinstance(e, MissingField):
            fields = [k for k in face.piece.values]
            message, key = e.message or "undefined", None
            expected = "a field declared in the deck's 'fields:' " + (f"({', '.join(fields)})" if fields else
                                                                         "(it declares none)")
        elif isinstance(e, jinja2.UndefinedError):
            message, key, expected = e.message or "undefined", None, None
            unknown = _UNDEFINED.match(message)
            if unknown:  # color() for colour(), textbx(): a name of the template vocabulary one slip away
                said = unknown.group(1)
                held = [f"{outer}.{said}" for outer, space in context.items()
                        if isinstance(space, dict) and not outer.startswith("_") and callable(space.get(said))]
                if held:  # hex_corners() for shape.hex_corners(): a helper held in a namespace, written bare
                    message += f"; did you mean {held[0]}()?"
                    expected = f"{held[0]}(…), as docs/data-format.md gives it"
                elif said in TRIGONOMETRY:  # trial80: sin() to place hex corners or letters round a circle
                    expected = ("no trigonometry in templates: shape.hex_corners() for a hexagon's corners, SVG's "
                                "transform=\"rotate(angle cx cy)\" to turn a thing round a centre (docs/data-format.md, "
                                "hex-edges and dial)")
                else:
                    message += suggest(said, [k for k in context if not k.startswith("_") and k != said])
        elif isinstance(e, TypeError) and (helper := _helper_called(e, context)) is not None:
            name, signature = helper
            message, key, expected = _CALLED.sub(f"{name}() ", str(e), count=1), None, \
                f"{name}({', '.join(signature)}), as docs/data-format.md gives it"
            message += nearly(str(e), [a.partition("=")[0] for a in signature])
        elif isinstance(e, TypeError) and (macro := macro_called(e)) is not None:
            name, arguments = macro
            message, key = _words(e) + nearly(str(e), arguments), None
            expected = f"macro {name}({', '.join(arguments)}), as docs/data-format.md gives it"
        elif isinstance(e, jinja2.exceptions.SecurityError) and (closed := _UNSAFE.match(str(e))) is not None:
            attribute, owner = closed.groups()
            what = _OWNER_WORDS.get(owner, "a value")
            fields = [k for k in face.piece.values]
            why = ("it makes bytes, which no face prints" if attribute in BYTES_MAKERS else
                   "Python's insides (a name starting with _, an object's methods that reach them) are never read in "
                   "Jinja's sandbox")
            message, key = f"{what}'s {attribute!r} is closed to templates: {why}", None
            expected = (f"a field of the piece ({', '.join(f'piece.{k}' for k in fields[:4]) or 'the deck declares none'}), "
                        "a text's filters (|upper, |replace, |length), and the helpers docs/data-format.md lists")
        elif isinstance(e, RecursionError):  # a template including or extending itself, a macro calling itself
            message, key = "the template calls itself without end (an include, extends or macro that leads back to it)", None
            expected = ("an include or extends naming another template, and a macro that calls itself only "
                        "while a count runs down")
        elif isinstance(e, OverflowError) and "MAX_RANGE" in str(e):  # Jinja's sandbox's words, in Python's name
            message, key = f"range() of more than {jinja2.sandbox.MAX_RANGE:,} numbers", None
            expected = (f"a range of at most {jinja2.sandbox.MAX_RANGE:,} (a track's spaces or a grid's cells are a few "
                        "hundred at most)")
        elif isinstance(e, jinja2.TemplateNotFound):
            name = str(e.message or e.name)  # quoted when it holds a line break or space that hides in print
            message, key = name if name.isprintable() and name == name.strip() else repr(name), "template"
            slug = self.game.slug
            if too_long(name):
                message = f"{name[:40]!r}… is too long for a file name"
                expected = (f"a template under templates/{slug}/, each part of its name at most {NAME_BYTES} bytes "
                            f"and the whole at most {PATH_BYTES}")
            elif "/" not in name and not too_long(name) and (self.templates / slug / name).is_file():  # named from its own folder
                expected = (f"'{slug}/{name}': an include or import names a template from templates/, "
                            f"so templates/{slug}/{name} is '{slug}/{name}'")
            else:
                expected = f"a file under templates/{slug}/, named '{slug}/<file>', or a built-in common/ template"
        else:
            message, key, expected = _words(e), None, None
        if where not in message:
            message += f" (rendering {where})"
        message = one_line(message)
        if isinstance(e, ValueMistake) and key == "game.title":  # (a character no font has: said at the piece's line)
            title = load_yaml(self.game.root / "game.yaml").where(("title",))
            return InputError(message, path=title.path, line=title.line, column=title.column, key="title",
                              expected=expected)
        if isinstance(e, ValueMistake) and key in face.piece.field_lines:  # in the piece's own text or icons
            field = face.piece.where_of(key)
            return InputError(message, path=field.path, line=field.line, column=field.column,
                              key=face.piece.key_of(key), expected=expected)
        if not frames:
            return InputError(message, path=face.deck.source, key=key or face.side, expected=expected)
        # The designer's own line that led there; a built-in macro it called is named beside it.
        own = [f for f in frames if Path(f.filename).is_relative_to(self.templates)]
        if not own and face.deck.layout is not None:  # a layout's face: the piece's data, not pnpgen's file
            at_piece = face.piece.where
            return InputError(message, path=at_piece.path, line=at_piece.line, column=at_piece.column,
                              key=key or face.side, expected=expected)
        at = own[-1] if own else frames[-1]
        if at is not frames[-1] and Path(frames[-1].filename).is_relative_to(builtin.FOLDER):
            inside = Path(frames[-1].filename).relative_to(builtin.FOLDER).as_posix()
            message = one_line(f"{message} (in pnpgen's {inside}:{frames[-1].lineno}, called from here)")
            undefined = _UNDEFINED.match(message) if isinstance(e, jinja2.UndefinedError) else None
            if undefined and undefined.group(1) in context:  # the template has it; the macro was not given it
                expected = f'{{% import "{inside}" as m with context %}}: its macros read w, h, bleed and the helpers'
        elif isinstance(e, jinja2.UndefinedError) and len({f.filename for f in own}) > 1:  # in a macro file of the game's
            undefined = _UNDEFINED.match(message)
            if undefined and undefined.group(1) in context and Path(at.filename).is_relative_to(self.templates):
                name = Path(at.filename).relative_to(self.templates).as_posix()
                expected = (f'{{% import "{name}" as … with context %}} in the template that imports it: a macro '
                            "imported without 'with context' reads none of w, h, bleed, piece or the helpers")
        return InputError(message, path=at.filename, line=at.lineno, key=key, expected=expected)
