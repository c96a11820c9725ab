"""``python -m pnpgen`` runs the command line."""

from pnpgen.cli import console

console()
