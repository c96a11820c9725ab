"""Where a game's templates are read from: its templates/ folder only (no link leading out, no file
past MAX_TEMPLATE_BYTES, UTF-8 text), and pnpgen's own templates under their whole names."""

from __future__ import annotations

from pathlib import Path

import jinja2

from pnpgen.data.textfile import SAVE_AS_UTF8, not_utf8, saved_as
from pnpgen.errors import InputError, too_long


class NamedPrefixLoader(jinja2.PrefixLoader):
    """Jinja's PrefixLoader, but its templates keep their whole name (``common/macros.svg.j2``,
    ``@layout/<deck>/front``): Jinja's own names them by what follows the prefix, so their lines
    were named ``templates/macros.svg.j2:N`` in the print lint, a file that is not there."""

    load = jinja2.BaseLoader.load  # the source through get_source (prefix resolved), the name whole


MAX_TEMPLATE_BYTES = 16_000_000  # one template file: the shipped ones are at most 14 kB; a 300 MB one took a minute and a gigabyte


class WorkspaceLoader(jinja2.FileSystemLoader):
    """Templates, includes and imports from templates/ only: Jinja refuses '..' in a name, and
    this refuses a file that a symlink leads out of the folder before it is opened (an error, so
    the built-in templates tried next never stand in for it)."""

    def __init__(self, root: Path):
        super().__init__(str(root))
        self.root = root.resolve()

    def get_source(self, environment: jinja2.Environment, template: str):
        if too_long(template):  # (looked up, it raises ENAMETOOLONG: said raw, the whole name)
            raise jinja2.TemplateNotFound(template)
        for folder in self.searchpath:  # as Jinja finds it; measured and placed before it is read
            path = Path(folder, *jinja2.loaders.split_template_path(template))
            if not path.is_file():
                continue
            if not path.resolve().is_relative_to(self.root):  # not TemplateNotFound: no fallback
                raise InputError(f"template {template!r} leads outside templates/", key="template",
                                 expected="a file inside templates/, without links leading out")
            if path.stat().st_size > MAX_TEMPLATE_BYTES:
                raise InputError(f"template {template!r} is {path.stat().st_size:,} bytes", path=f"templates/{template}",
                                 key="template", expected=f"at most {MAX_TEMPLATE_BYTES:,} bytes (a picture pasted in "
                                 "as data: belongs in the art folder, placed with image())")
            break
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except UnicodeDecodeError as e:  # Shift-JIS, UTF-16…: the template is wrong, not the deck (said as a YAML file's is)
            raise not_utf8(f"templates/{template}", e.object, e, f"template {template!r}", key="template") from None
        if "\x00" in source and saved_as(Path(filename).read_bytes()):  # UTF-16 without its mark: ASCII and NULs
            raise InputError(f"template {template!r} is not UTF-8 text: it is UTF-16 (its NUL bytes read as characters)",
                             path=f"templates/{template}", line=1, key="template", expected=SAVE_AS_UTF8)
        return source, filename, uptodate
