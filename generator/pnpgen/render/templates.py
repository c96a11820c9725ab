"""Template stage: one piece face → an SVG document, through autoescaped Jinja templates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jinja2

from pnpgen.errors import InputError
from pnpgen.data.model import Deck, Game, Piece, is_placeholder
from pnpgen.text import TextContext, icon, textbox
from pnpgen.render.helpers import shape_tools
from pnpgen.render.art import MIN_DPI, ArtPlacer

SAFE_MM = 3.0


class PieceView(Mapping):
    """A piece's fields for templates: ``piece.name`` and ``piece["name"]`` both work, and field
    names such as ``copy`` or ``count`` are not shadowed by dict methods."""

    def __init__(self, values: dict[str, Any], reads: set[str] | None = None):
        self._values = values
        self._reads = reads if reads is not None else set()

    def __getitem__(self, key: str) -> Any:
        self._reads.add(key)
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __iter__(self):
        self._reads.update(self._values)  # a template that loops over the fields reads them all
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


@dataclass(frozen=True)
class Face:
    """What to draw for one side of one piece."""

    deck: Deck
    piece: Piece
    side: str  # "front" | "back"
    copy: int = 1


class Renderer:
    """Holds the Jinja environment for one game; renders faces to SVG text."""

    def __init__(self, templates: Path, game: Game, bleed_mm: float, min_dpi: float = MIN_DPI):
        self.game = game
        self.bleed_mm = bleed_mm
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.icon_dirs = [templates / game.slug / "icons", templates / "common" / "icons"]
        self.warnings: list[str] = []
        self.art = ArtPlacer(game, templates, min_dpi, self.warnings)  # image(); art.folder.resolver for <image>

    def colour(self, name: str) -> str:
        if name in self.game.palette:
            return self.game.palette[name]
        if isinstance(name, str) and name.startswith("#"):
            return name
        raise InputError(f"unknown colour {name!r} in a template", path=self.game.root / "game.yaml",
                         key="palette", expected="one of " + ", ".join(self.game.palette))

    def render(self, face: Face, reads: set[str] | None = None) -> str:
        """The face's SVG; the names of the piece fields the template read go into ``reads``
        (a face that never reads ``copy`` is the same for every copy)."""
        deck, piece = face.deck, face.piece
        template_name = deck.front if face.side == "front" else deck.back
        where = f"deck {deck.id!r} piece {piece.index} ({piece.label}, {piece.where}) {face.side}"
        ctx = TextContext(
            fonts=self.game.fonts,
            fallback_fonts=self.game.fallback_fonts,
            palette=self.game.palette,
            icon_dirs=self.icon_dirs,
            where=where,
        )
        w, h = deck.trim_mm
        values: dict[str, Any] = dict(piece.values)
        values.update(count=piece.count, n=piece.index, copy=face.copy)
        context = dict(
            piece=PieceView(values, reads),
            deck=dict(id=deck.id, name=deck.name, kind=deck.kind, shape=deck.shape, count=deck.count,
                      options=deck.options),
            game=dict(title=self.game.title, draft=self.game.draft, players=self.game.players),
            w=w, h=h, bleed=self.bleed_mm, safe=SAFE_MM,
            palette=self.game.palette,
            colour=self.colour,
            fonts=self.game.fonts,
            textbox=partial(textbox, ctx),
            icon=partial(icon, ctx),
            is_placeholder=is_placeholder,
        )
        # Shape and score-track helpers (template_tools.py): track(), outline(), shape.
        context.update(shape_tools(deck, face.side, self.game.fonts, self.colour))
        context.update(self.art.tools(deck, piece, template_name, context["textbox"], self.colour))
        try:
            template = self.env.get_template(template_name)
            svg = template.render(context)
        except jinja2.TemplateSyntaxError as e:
            raise InputError(f"template syntax error: {e.message}", path=e.filename or template_name,
                             line=e.lineno) from None
        except jinja2.TemplateNotFound as e:
            raise InputError(f"template {e.name!r} not found", path=deck.source,
                             expected=f"a file under templates/{self.game.slug}/ or templates/common/") from None
        except jinja2.UndefinedError as e:
            raise InputError(f"template {template_name}: {e.message} (rendering {where})", path=deck.source,
                             expected="a field declared in the deck's 'fields:'") from None
        self.warnings.extend(ctx.warnings)
        return svg
