#!/usr/bin/env python3
"""kiwi-peer's entry point: the command line of the kiwipeer package beside it (kiwipeer/cli.py
describes the commands and their exit statuses). Run it through scripts/peers/kiwi-peer, which
makes the virtual environment with the pinned kiwisolver."""

import os
import sys

# The package lives beside this file: importable from any working directory, and when imported.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kiwipeer.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
