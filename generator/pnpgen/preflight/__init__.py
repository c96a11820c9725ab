"""``pnpgen preflight``: an export folder read as a print shop's prepress operator reads it, page by
page, independently of the code that wrote it (pikepdf for the content streams, Ghostscript's
``tiffsep`` for the inks, pdfium for the glyphs' boxes, Pillow for PNGs), against the figures of
the preset the folder is named after (docs/exports.md, "A print shop's preflight of the files").

It imports nothing of pnpgen's writer (pdf/, exports/): a check made with the writer's own code
would pass whatever the writer does. shop.py: the preset's figures and the findings; content.py:
what a page paints, as printed; pdfcheck.py: a PDF's geometry, lines, text, pictures, safe zone
and page order; inks.py: total ink and the bleed from the separations; pngcheck.py: a PNG's;
run.py: the folders checked and said."""
