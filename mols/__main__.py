"""`python -m mols`: the `mols` command."""

from mols.cli import main

main()
