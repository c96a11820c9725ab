"""A see-through picture under pnpgen's pixel limit (60 million) still decodes to 240 MB: a 470 kB
PNG of 7745×7745 transparent pixels made a build of one card peak at 1 GB, as laying it on its
ground copied it four times (converted to RGBA again, a ground, alpha_composite's crop and its
result). It is laid on its ground a band of rows at a time: its own pixels and the result's, the
same bytes as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from pnpgen.data.pixels import COMPOSITE_ROWS, opaque_rgb

GENERATOR = Path(__file__).resolve().parents[2] / "generator"

# A fresh process: the growth of its peak memory while one 3000×3000 RGBA picture (36 MB decoded)
# is made opaque, in the picture's own size.
GROWTH = """
import resource, sys
sys.path.insert(0, sys.argv[1])
from PIL import Image
from pnpgen.data.pixels import opaque_rgb
im = Image.new("RGBA", (3000, 3000), (10, 20, 30, 128))
im.load()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
opaque_rgb(im, (255, 255, 255))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024 / (3000 * 3000 * 4))
"""


def test_a_see_through_picture_costs_one_more_copy_of_itself_not_three():
    grew = float(subprocess.run([sys.executable, "-c", GROWTH, str(GENERATOR)], capture_output=True,
                                text=True, check=True).stdout)
    assert grew < 1.5, f"made opaque, its peak grew by {grew:.2f} times the picture (2 to 3 before)"


def test_laid_in_bands_each_pixel_is_alpha_composites():
    rng = np.random.default_rng(7)
    rows = 2 * COMPOSITE_ROWS + 37  # (a last band shorter than the others)
    picture = Image.fromarray(rng.integers(0, 256, (rows, 301, 4), dtype=np.uint8), "RGBA")
    whole = Image.new("RGBA", picture.size, (250, 240, 10, 255))
    whole.alpha_composite(picture)
    assert np.array_equal(np.asarray(opaque_rgb(picture, (250, 240, 10))), np.asarray(whole.convert("RGB")))
