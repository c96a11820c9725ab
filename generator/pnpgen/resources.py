"""The files pnpgen ships beside its code — fonts (with OFL.txt), built-in templates and icons,
export presets, message catalogues, its documentation (docs/*.md, README.md) — found through ``importlib.resources``, so an installed
pnpgen (``pip install .``, a wheel, ``pipx``) finds its own copy wherever it lives, never a
checkout's.

pnpgen is installed unzipped (a wheel always is), so each folder is a real folder on disk: Jinja,
ReportLab and the icon lookup read files by path.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import pnpgen

FONTS_PACKAGE = "pnpgen.fontfiles"  # the repository's top-level fonts/, mapped in pyproject.toml
DOCS_PACKAGE = "pnpgen.docfiles"  # the repository's docs/, mapped in pyproject.toml


@functools.cache
def folder(package: str, *inside: str) -> Path:
    """The folder of ``package`` (a package of pnpgen), or a folder ``inside`` it. Kept: it does
    not move while pnpgen runs, and every message made workspace-relative asks for it (40 µs
    a call, thousands of calls in a big deck's build)."""
    return Path(str(resources.files(package).joinpath(*inside)))


def fonts_folder() -> Path:
    """The fonts pnpgen comes with. In a wheel or ``pip install`` they are the package
    ``pnpgen.fontfiles``, which pyproject.toml maps to the repository's top-level ``fonts/``; a
    source checkout run without installing (``PYTHONPATH=generator``) has no such package, and
    its ``fonts/`` folder is that same folder."""
    try:
        return folder(FONTS_PACKAGE)
    except ModuleNotFoundError:
        return checkout() / "fonts"


def docs_folder() -> Path:
    """docs/*.md as this pnpgen has them: in a wheel the package ``pnpgen.docfiles`` (the
    repository's ``docs/``, mapped in pyproject.toml; a folder of files only, so its files are
    asked for one by one), in a source checkout its ``docs/`` folder."""
    try:
        return Path(str(resources.files(DOCS_PACKAGE).joinpath("data-format.md"))).parent
    except ModuleNotFoundError:
        return checkout() / "docs"


def checkout() -> Path:
    """The folder two above the package: a source checkout's top when pnpgen runs from one."""
    return Path(pnpgen.__file__).resolve().parents[2]
