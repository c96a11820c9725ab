"""The PDF stage: the only code that knows points and PDF objects.

``writer`` turns page plans into PDF bytes; ``draw`` paints a face's art on a canvas, with
``shading`` (gradients) and ``svglib_fallback`` (faces outside the converter's subset);
``colour`` converts to CMYK and checks ink; ``settings`` is the one place ReportLab's
process-wide settings are set.
"""
