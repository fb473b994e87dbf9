"""``python -m ui``: the same as the installed ``lanplay`` command (the window)."""

import sys

from ui.main import main

sys.exit(main())
