"""Icons: small SVG files inlined into piece SVGs as groups, so svglib draws them as vectors."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lxml import etree

from .errors import InputError

SVG_NS = "http://www.w3.org/2000/svg"


@lru_cache(maxsize=None)
def _load(path: Path) -> tuple[str, tuple[float, float, float, float]]:
    """The icon's inner markup and its viewBox."""
    root = etree.parse(str(path)).getroot()
    box = root.get("viewBox")
    if box:
        vb = tuple(float(v) for v in box.replace(",", " ").split())
    else:
        vb = (0.0, 0.0, float(root.get("width", 100)), float(root.get("height", 100)))
    inner = "".join(etree.tostring(child, encoding="unicode") for child in root)
    return inner, vb  # type: ignore[return-value]


class IconSet:
    """Looks icons up by name in the game's icons folder, then the common one."""

    def __init__(self, dirs: list[Path]):
        self.dirs = dirs

    def find(self, name: str) -> Path | None:
        for folder in self.dirs:
            path = folder / f"{name}.svg"
            if path.is_file():
                return path
        return None

    def names(self) -> list[str]:
        return sorted({p.stem for d in self.dirs if d.is_dir() for p in d.glob("*.svg")})

    def place(self, name: str, x: float, y: float, size: float, where: str = "") -> str:
        """The icon scaled into a size×size square whose top-left is (x, y), in mm."""
        path = self.find(str(name))
        if path is None:
            raise InputError(f"unknown icon {{{name}}} in {where}",
                             expected="one of " + ", ".join(self.names()) if self.names() else "an SVG in templates/<game>/icons/")
        inner, (vx, vy, vw, vh) = _load(path)
        scale = size / max(vw, vh)
        dx = x + (size - vw * scale) / 2 - vx * scale
        dy = y + (size - vh * scale) / 2 - vy * scale
        return f'<g transform="translate({dx:.3f},{dy:.3f}) scale({scale:.5f})">{inner}</g>'
