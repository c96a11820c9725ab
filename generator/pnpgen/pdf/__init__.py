"""The PDF writer: the one stage that knows points.

Importing it sets how ReportLab writes streams, for every PDF pnpgen makes (sheets, shop files,
rulebooks): Flate only. ReportLab's default adds ASCII85 on top, which makes each stream it
encodes a quarter larger (the four games' files, 5% larger in all) and slower to write and to
read, for 7-bit mail transports no print shop uses.
"""

from reportlab import rl_config

rl_config.useA85 = 0
