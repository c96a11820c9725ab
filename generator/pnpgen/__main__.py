"""``python -m pnpgen`` runs the command line."""

import sys

from pnpgen.cli import main

sys.exit(main())
