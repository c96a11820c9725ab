"""PDF transformation matrices (a, b, c, d, e, f), as the content-stream readers and rewriters
of pdf/ apply them (black, minline, outline, paints, overprint): one product, one point through a
matrix, one line-width scale."""

from __future__ import annotations

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def times(m, n) -> Matrix:
    """m then n: a ``cm`` (m) applied inside the matrix in effect (n) (PDF 32000-1 8.3.4)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def point(m, x, y):
    """The point (x, y) through matrix ``m`` (PDF 32000-1 8.3.3); x and y numbers or numpy arrays of them."""
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def scale(m) -> float:
    """How much a matrix scales a line's width: the square root of its determinant's size."""
    a, b, c, d = m[:4]
    return abs(a * d - b * c) ** 0.5
