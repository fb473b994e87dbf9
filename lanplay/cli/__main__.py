"""``python -m lanplay.cli``: the headless commands, as ``python -m lanplay`` runs them
(the tests start hosts and peers this way)."""

import sys

from lanplay.cli import main

sys.exit(main())
