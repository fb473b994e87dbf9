"""The one-file app's entry point: the installed ``lanplay`` command (ui.main)."""

import multiprocessing
import os
import sys

from ui.main import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # bench-load's spawned children start here too
    if not any(os.environ.get(k) for k in ("LC_ALL", "LC_CTYPE", "LANG")):
        # What Python does for its own C locale (PEP 538) and the frozen app does
        # not: Qt wants UTF-8, and says so on stderr when it has to switch itself.
        os.environ["LC_CTYPE"] = "C.UTF-8"
    sys.exit(main())
