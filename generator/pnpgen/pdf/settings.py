"""ReportLab's process-wide drawing settings pnpgen changes. Light to import: ReportLab's
graphics module (which loads platypus) is imported only when a setting is changed."""

from __future__ import annotations


def use_default_font(name: str) -> None:
    """Make ReportLab's graphics state start from an embedded font instead of Helvetica,
    so no page references a font that is not embedded."""
    from reportlab.graphics import shapes  # loads platypus: only for a face svglib draws

    shapes.STATE_DEFAULTS["fontName"] = name
