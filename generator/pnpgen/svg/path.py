"""Path data (``d``, ``points``) → segments, and segments → PDF path operators.

Segments are tuples: ("m"/"l", x, y), ("c", x1, y1, x2, y2, x, y), ("re", x, y, w, h), ("h",).
"""

from __future__ import annotations

import math

from pnpgen.patterns import later
from pnpgen.svg.style import pdf_num

_NUMBER_OR_JUNK = later(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([^\s,])")
_PATH_TOKEN = later(r"([MmZzLlHhVvCcSsQqTtAa])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([^\s,])")


def parse_points(text: str) -> list[float]:
    """The numbers of a ``points`` list; ValueError at anything else (a template's mistake)."""
    out = []
    for number, junk in _NUMBER_OR_JUNK.findall(text):
        if junk:
            raise ValueError(text[:40])
        out.append(float(number))
    return out


def arc(x1, y1, rx, ry, phi, large, sweep, x2, y2) -> list[tuple]:
    """An SVG elliptical arc as cubic Béziers (SVG 1.1 F.6.5, at most 90° a piece)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("l", x2, y2)]
    cos, sin = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos * dx + sin * dy, -sin * dx + cos * dy
    lam = (xp / rx) ** 2 + (yp / ry) ** 2
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    co = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        co = -co
    cxp, cyp = co * rx * yp / ry, -co * ry * xp / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2

    def angle(ux, uy, vx, vy):
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    t1 = angle(1, 0, (xp - cxp) / rx, (yp - cyp) / ry)
    dt = angle((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    n = max(1, math.ceil(abs(dt) / (math.pi / 2) - 1e-9))
    step = dt / n
    k = 4 / 3 * math.tan(step / 4)
    out = []

    def point(t):
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cos * ex - sin * ey + cx, sin * ex + cos * ey + cy

    def deriv(t):
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos * ex - sin * ey, sin * ex + cos * ey

    t = t1
    px, py = x1, y1
    for i in range(n):
        t2 = t + step
        qx, qy = point(t2) if i < n - 1 else (x2, y2)
        d1, d2 = deriv(t), deriv(t2)
        out.append(("c", px + k * d1[0], py + k * d1[1], qx - k * d2[0], qy - k * d2[1], qx, qy))
        t, px, py = t2, qx, qy
    return out


_ARGS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


def parse_path(d: str) -> list[tuple]:
    """Path data → segments ("m"/"l", x, y), ("c", x1, y1, x2, y2, x, y), ("h",). ValueError at
    the first error: where SVG would draw the path up to it, a template's mistake is reported."""
    tokens = _PATH_TOKEN.findall(d)
    segs: list[tuple] = []
    cx = cy = sx = sy = 0.0
    last_ctrl = None  # (x, y, kind) of the previous curve's control point, for S and T
    i, n = 0, len(tokens)
    cmd = None
    while i < n:
        c, num, bad = tokens[i]
        if bad:
            raise ValueError(f"path data {d[:40]!r}: {bad!r} is not a command or number")
        if c:
            cmd = c
            i += 1
            if c in "zZ":
                if segs:
                    segs.append(("h",))
                cx, cy = sx, sy
                last_ctrl = None
                continue
        elif cmd is None or cmd in "zZ":
            raise ValueError(f"path data {d[:40]!r}: a number without a command")
        lower = cmd.lower()
        rel = cmd.islower()
        want = _ARGS[lower]
        args: list[float] = []
        while len(args) < want and i < n:
            tc, tnum, tbad = tokens[i]
            if not tnum:
                break
            if lower == "a" and len(args) in (3, 4):  # flags may be packed: "a1 1 0 01.5 2"
                if tnum[0] not in "01":
                    break
                args.append(float(tnum[0]))
                rest = tnum[1:]
                if rest:
                    tokens[i] = ("", rest, "")
                else:
                    i += 1
                continue
            args.append(float(tnum))
            i += 1
        if len(args) < want:
            raise ValueError(f"path data {d[:40]!r}: {cmd} takes {want} numbers")
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        if lower == "m":
            cx, cy = args[0] + ox, args[1] + oy
            sx, sy = cx, cy
            segs.append(("m", cx, cy))
            cmd = "l" if rel else "L"  # implicit repeats of a moveto are linetos
            last_ctrl = None
        elif lower == "l":
            cx, cy = args[0] + ox, args[1] + oy
            segs.append(("l", cx, cy))
            last_ctrl = None
        elif lower == "h":
            cx = args[0] + ox
            segs.append(("l", cx, cy))
            last_ctrl = None
        elif lower == "v":
            cy = args[0] + (cy if rel else 0.0)
            segs.append(("l", cx, cy))
            last_ctrl = None
        elif lower == "c":
            x1, y1, x2, y2, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy, args[4] + ox, args[5] + oy
            segs.append(("c", x1, y1, x2, y2, x, y))
            cx, cy, last_ctrl = x, y, (x2, y2, "c")
        elif lower == "s":
            x1, y1 = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_ctrl and last_ctrl[2] == "c" else (cx, cy)
            x2, y2, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            segs.append(("c", x1, y1, x2, y2, x, y))
            cx, cy, last_ctrl = x, y, (x2, y2, "c")
        elif lower in ("q", "t"):
            if lower == "q":
                qx, qy, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            else:
                qx, qy = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_ctrl and last_ctrl[2] == "q" else (cx, cy)
                x, y = args[0] + ox, args[1] + oy
            segs.append(("c", cx + 2 / 3 * (qx - cx), cy + 2 / 3 * (qy - cy),
                         x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y))
            cx, cy, last_ctrl = x, y, (qx, qy, "q")
        else:  # arc
            x, y = args[5] + ox, args[6] + oy
            segs.extend(arc(cx, cy, args[0], args[1], args[2], args[3] != 0, args[4] != 0, x, y))
            cx, cy = x, y
            last_ctrl = None
        if segs and segs[0][0] != "m":
            raise ValueError(f"path data {d[:40]!r} does not start with a moveto (M)")
    return segs



def segments_ops(segs: list[tuple], m: tuple | None = None) -> str:
    """Segments as PDF path operators, their points through the matrix ``m`` when given."""
    out: list[str] = []
    extend, append, n = out.extend, out.append, pdf_num
    if m is None:
        for s in segs:
            if len(s) > 1:
                extend(map(n, s[1:]))
            append(s[0])
        return " ".join(out)
    a, b, c, d, e, f = m
    for s in segs:
        op = s[0]
        if op == "re":
            x, y, w, h = s[1:]
            for px, py, o in ((x, y, "m"), (x + w, y, "l"), (x + w, y + h, "l"), (x, y + h, "l")):
                extend((n(a * px + c * py + e), n(b * px + d * py + f), o))
            append("h")
            continue
        for j in range(1, len(s), 2):
            x, y = s[j], s[j + 1]
            extend((n(a * x + c * y + e), n(b * x + d * y + f)))
        append(op)
    return " ".join(out)
