"""The options of the home sheets as the command line gives them (``build``, ``watch`` and
``reprint --since``): one reading, so a reprint's sheets are laid out as the build's they go beside."""

from __future__ import annotations

import argparse
from typing import Any

from pnpgen.data.workspace import Workspace


def home_sheet_options(ws: Workspace, args: argparse.Namespace) -> dict[str, Any]:
    """What the home sheets are laid out with, as ``build`` (and ``reprint --since``) are given it:
    paper, duplex, marks, margin, bleed, layout, sleeve, sheet layout, printer profile and cutting
    machine — the fields of BuildOptions they make."""
    from pnpgen.impose.grid import SheetOptions

    printer = None
    if getattr(args, "printer", None) is not None:  # (--printer "" refused, not passed over; each option's stage loaded only when it is asked for)
        from pnpgen.data.printers import check_asked, load_printer

        printer = load_printer(ws.root, args.printer)
        check_asked(printer, args.paper, args.duplex)
    given = {"bleed_mm": args.bleed} if args.bleed is not None else {}  # None: --bleed not given
    cutter = cutter_marks(args)
    silhouette = None
    if cutter == "silhouette":
        from pnpgen.impose.registration import SILHOUETTE

        silhouette = getattr(args, "silhouette_marks", None) or SILHOUETTE
    duplex = printer.duplex if printer is not None and printer.duplex else args.duplex or "long"
    sheet = SheetOptions(paper=printer.paper if printer is not None and printer.paper else args.paper or "a4",
                         paper_given=args.paper is not None,
                         duplex=duplex,
                         marks="jp" if cutter == "cricut" else args.marks, margin_mm=args.margin,
                         layout=home_layout(args),
                         silhouette=silhouette,
                         sleeve_mm=sleeve_mm(args),
                         **(printer.sheet_fields(duplex) if printer is not None else {}), **given)
    return {"sheet": sheet, "printer": printer, "cutter": cutter, "cricut_area_in": getattr(args, "cricut_area", None),
            "asked": (args.paper, args.duplex), "stock": sheet_stock(ws, getattr(args, "sheet", None), sheet.layout, cutter)}


def home_layout(args: argparse.Namespace) -> str:
    """``--layout``: grid, fold or sleeve; not given (None): the grid."""
    return getattr(args, "layout", None) or "grid"


def cutter_marks(args: argparse.Namespace) -> str:
    """``silhouette`` or ``cricut`` for a cutting machine's marks and files (grid sheets only), else ""."""
    from pnpgen.errors import InputError

    cutter = args.marks if args.marks in ("silhouette", "cricut") else ""
    if getattr(args, "silhouette_marks", None) is not None and cutter != "silhouette":
        raise InputError("--silhouette-marks without --marks silhouette", key="--silhouette-marks",
                         expected="--marks silhouette, or no --silhouette-marks")
    if getattr(args, "cricut_area", None) is not None and cutter != "cricut":
        raise InputError("--cricut-area without --marks cricut", key="--cricut-area",
                         expected="--marks cricut, or no --cricut-area")
    layout = home_layout(args)
    if cutter and layout != "grid":
        raise InputError(f"--marks {cutter} cuts grid sheets, not --layout {layout}", key="--marks",
                         expected="--layout grid (print fronts and backs duplex, cut from the front)")
    return cutter


def sleeve_mm(args: argparse.Namespace) -> tuple[float, float] | None:
    """``--sleeve``'s size for ``--layout sleeve``; given with another layout it would be passed
    over in silence (cards and backs on the grid), so it is an error."""
    from pnpgen.errors import InputError

    sleeve = getattr(args, "sleeve", None)
    if sleeve is None:
        return None
    layout = home_layout(args)
    if layout != "sleeve":
        raise InputError(f"--sleeve without --layout sleeve (the layout is {layout})", key="--sleeve",
                         expected="--layout sleeve --sleeve WxH, or no --sleeve")
    return (sleeve.w, sleeve.h)


def sheet_stock(ws: Workspace, name: str | None, layout: str, cutter: str):
    """--sheet's sheet layout (None: not given, or ``grid``); one line for a bad or unknown name."""
    if name is None:
        return None
    from pnpgen.data.sheetlayouts import load_sheet
    from pnpgen.errors import InputError

    if layout != "grid":
        raise InputError(f"--sheet puts pieces into a sheet layout's slots, not with --layout {layout}", key="--sheet",
                         expected="either --sheet NAME or --layout fold/sleeve")
    if cutter:
        raise InputError(f"--sheet puts pieces into a sheet layout's slots, not with --marks {cutter}", key="--sheet",
                         expected="either --sheet NAME (a stock cut by its perforation or by hand) or a cutting machine")
    return load_sheet(ws.root, name, lambda message, expected: InputError(message, key="--sheet", expected=expected))
