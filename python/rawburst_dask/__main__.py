"""``python -m rawburst_dask``: the command line (see ``rawburst_dask.cli``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
