"""``python -m lanplay``: the same as the ``lanplay`` command."""

import sys

from lanplay.cli import main

sys.exit(main())
