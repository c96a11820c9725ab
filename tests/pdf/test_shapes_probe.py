"""Read outlines back out of a PDF in millimetres: clip paths and stroked die lines drawn at page
level (outside any transform), curves sampled. Helpers for the shape/pack/tiling tests, plus a
self-check of the reader."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

PT = 25.4 / 72.0


@dataclass
class PagePath:
    kind: str  # "clip" | "stroke"
    points: list[tuple[float, float]]  # mm from the page's top-left, curves sampled
    corners: list[tuple[float, float]]  # the m/l/c end points only


def page_paths(reader: PdfReader, page, samples: int = 12) -> list[PagePath]:
    """Clip paths (… W n) and stroked paths (… S) drawn in page coordinates."""
    h = float(page.mediabox.top)
    ops = ContentStream(page.get_contents(), reader).operations
    out: list[PagePath] = []
    transformed = [False]
    pts: list[tuple[float, float]] = []
    corners: list[tuple[float, float]] = []
    cur = (0.0, 0.0)
    clip_pending = False

    def mm(x: float, y: float) -> tuple[float, float]:
        return x * PT, (h - y) * PT

    for operands, op in ops:
        if op == b"q":
            transformed.append(transformed[-1])
        elif op == b"Q":
            transformed.pop()
        elif op == b"cm":
            if [float(v) for v in operands] != [1, 0, 0, 1, 0, 0]:
                transformed[-1] = True
        elif transformed[-1]:
            continue
        elif op == b"m":
            cur = (float(operands[0]), float(operands[1]))
            pts.append(mm(*cur))
            corners.append(mm(*cur))
        elif op == b"l":
            cur = (float(operands[0]), float(operands[1]))
            pts.append(mm(*cur))
            corners.append(mm(*cur))
        elif op == b"c":
            x1, y1, x2, y2, x3, y3 = (float(v) for v in operands)
            x0, y0 = cur
            for k in range(1, samples + 1):
                t = k / samples
                a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
                pts.append(mm(a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
            cur = (x3, y3)
            corners.append(mm(*cur))
        elif op == b"re":
            x, y, w, hh = (float(v) for v in operands)
            rect = [mm(x, y), mm(x + w, y), mm(x + w, y + hh), mm(x, y + hh)]
            pts.extend(rect)
            corners.extend(rect)
        elif op in (b"W", b"W*"):
            clip_pending = True
        elif op in (b"n", b"S", b"s", b"f", b"F", b"B"):
            if pts:
                kind = "clip" if clip_pending else ("stroke" if op in (b"S", b"s") else "other")
                out.append(PagePath(kind, pts, corners))
            pts, corners, clip_pending = [], [], False
    return out


def dist_point_polyline(p, poly, closed: bool = True) -> float:
    best = math.inf
    n = len(poly)
    for i in range(n if closed else n - 1):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
        best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best


def test_probe_reads_a_circle_and_a_rectangle(tmp_path):
    from pnpgen.impose.plan import DieLine, Page, PagePlan
    from pnpgen.pdf.writer import write_document
    from pnpgen.shapes import circle_path, grow_polygon

    page = Page((100, 100), [DieLine(circle_path(50, 40, 10)),
                             DieLine(grow_polygon([(10, 10), (30, 10), (30, 20), (10, 20)], 0))])
    path = tmp_path / "p.pdf"
    path.write_bytes(write_document(PagePlan("probe", [page]), {}, "Helvetica"))
    r = PdfReader(path)
    paths = page_paths(r, r.pages[0])
    assert [p.kind for p in paths] == ["stroke", "stroke"]
    for x, y in paths[0].points:
        assert math.hypot(x - 50, y - 40) == pytest_approx(10, 0.02)
    assert sorted(paths[1].corners)[0] == pytest_approx((10, 10), 1e-3)


def pytest_approx(v, tol):
    import pytest

    return pytest.approx(v, abs=tol)
