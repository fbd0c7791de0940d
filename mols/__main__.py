"""`python -m mols` and the `mols` console script: signals end the process cleanly from the first line, then the
command runs (mols.cli)."""

import os
import sys

from mols.signals import SIGNALS, exit_on_signals


def main() -> None:
    exit_on_signals()
    from mols.cli import main as command

    try:
        command()
    except SystemExit as done:
        if done.code in {128 + signum for signum in SIGNALS}:
            # Interrupted, and what the command keeps is written: leave at once. A KeyboardInterrupt that landed in
            # an extension's own Python call leaves CPython set to kill itself with SIGINT at exit (code -2, not 130).
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(done.code)
        raise


if __name__ == "__main__":
    main()
